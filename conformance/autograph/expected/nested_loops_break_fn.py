def tf__nested_loops_break_fn(n):
    with ag__.FunctionScope('nested_loops_break_fn', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        s = 0
        break_ = False

        def get_state_4():
            return (s, break_)

        def set_state_4(vars_):
            nonlocal break_, s
            s, break_ = vars_

        def loop_body_1(itr_1):
            nonlocal break_, s
            i = itr_1
            continue_ = False
            (break_,)

            @ag__.autograph_artifact
            def inner(k):
                with ag__.FunctionScope('inner', 'fscope_1', ag__.STD) as fscope_1:
                    do_return_1 = False
                    retval__1 = ag__.UndefinedReturnValue()
                    t = 0
                    break__1 = False

                    def get_state_2():
                        return (t, break__1)

                    def set_state_2(vars_):
                        nonlocal break__1, t
                        t, break__1 = vars_

                    def loop_body(itr):
                        nonlocal break__1, t
                        j = itr
                        continue__1 = False
                        (break__1,)

                        def get_state():
                            return (break__1, continue__1)

                        def set_state(vars_):
                            nonlocal break__1, continue__1
                            break__1, continue__1 = vars_

                        def if_body():
                            nonlocal break__1, continue__1
                            break__1 = True
                            continue__1 = True

                        def else_body():
                            nonlocal break__1, continue__1
                            pass
                        ag__.if_stmt(ag__.ld(j) > 3, if_body, else_body, get_state, set_state, ('break__1', 'continue__1'), 2)

                        def get_state_1():
                            return (t,)

                        def set_state_1(vars_):
                            nonlocal t
                            t, = vars_

                        def if_body_1():
                            nonlocal t
                            t = ag__.ld(t)
                            t += j

                        def else_body_1():
                            nonlocal t
                            pass
                        ag__.if_stmt(ag__.not_(continue__1), if_body_1, else_body_1, get_state_1, set_state_1, ('t',), 1)

                    def extra_test():
                        nonlocal break__1, t
                        return ag__.not_(break__1)
                    j = ag__.Undefined('j')
                    continue__1 = ag__.Undefined('continue__1')
                    ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(k),), None, fscope_1), extra_test, loop_body, get_state_2, set_state_2, ('t', 'break__1'), {'iterate_names': 'j'})
                    try:
                        do_return_1 = True
                        retval__1 = ag__.ld(t)
                    except:
                        do_return_1 = False
                        raise
                    return fscope_1.ret(retval__1, do_return_1)
            s = ag__.ld(s)
            s += ag__.converted_call(inner, (i,), None, fscope)

            def get_state_3():
                return (break_,)

            def set_state_3(vars_):
                nonlocal break_
                break_, = vars_

            def if_body_2():
                nonlocal break_
                break_ = True
                continue_ = True

            def else_body_2():
                nonlocal break_
                pass
            ag__.if_stmt(ag__.ld(s) > 100, if_body_2, else_body_2, get_state_3, set_state_3, ('break_',), 1)

        def extra_test_1():
            nonlocal break_, s
            return ag__.not_(break_)
        inner = ag__.Undefined('inner')
        continue_ = ag__.Undefined('continue_')
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope), extra_test_1, loop_body_1, get_state_4, set_state_4, ('s', 'break_'), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(s)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
