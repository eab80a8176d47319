def tf__continue_deep(n):
    with ag__.FunctionScope('continue_deep', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        i = 0
        s = 0

        def get_state_4():
            return (s, i)

        def set_state_4(vars_):
            nonlocal s, i
            s, i = vars_

        def loop_body():
            nonlocal s, i
            continue_ = False
            i = ag__.ld(i)
            i += 1

            def get_state_2():
                return (continue_, s)

            def set_state_2(vars_):
                nonlocal continue_, s
                continue_, s = vars_

            def if_body_2():
                nonlocal continue_, s

                def get_state():
                    return (continue_,)

                def set_state(vars_):
                    nonlocal continue_
                    continue_, = vars_

                def if_body():
                    nonlocal continue_
                    continue_ = True

                def else_body():
                    nonlocal continue_
                    pass
                ag__.if_stmt(ag__.ld(i) % 2 == 0, if_body, else_body, get_state, set_state, ('continue_',), 1)

                def get_state_1():
                    return (s,)

                def set_state_1(vars_):
                    nonlocal s
                    s, = vars_

                def if_body_1():
                    nonlocal s
                    s = ag__.ld(s)
                    s += 10

                def else_body_1():
                    nonlocal s
                    pass
                ag__.if_stmt(ag__.not_(continue_), if_body_1, else_body_1, get_state_1, set_state_1, ('s',), 1)

            def else_body_2():
                nonlocal continue_, s
                pass
            ag__.if_stmt(ag__.ld(i) > 2, if_body_2, else_body_2, get_state_2, set_state_2, ('continue_', 's'), 2)

            def get_state_3():
                return (s,)

            def set_state_3(vars_):
                nonlocal s
                s, = vars_

            def if_body_3():
                nonlocal s
                s = ag__.ld(s)
                s += i

            def else_body_3():
                nonlocal s
                pass
            ag__.if_stmt(ag__.not_(continue_), if_body_3, else_body_3, get_state_3, set_state_3, ('s',), 1)

        def loop_test():
            return ag__.ld(i) < ag__.ld(n)
        continue_ = ag__.Undefined('continue_')
        ag__.while_stmt(loop_test, loop_body, get_state_4, set_state_4, ('s', 'i'), {})
        try:
            do_return = True
            retval_ = ag__.ld(s)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
