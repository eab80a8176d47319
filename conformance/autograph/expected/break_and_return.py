def tf__break_and_return(n):
    with ag__.FunctionScope('break_and_return', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        s = 0
        break_ = False

        def get_state_3():
            return (do_return, retval_, s, break_)

        def set_state_3(vars_):
            nonlocal break_, do_return, retval_, s
            do_return, retval_, s, break_ = vars_

        def loop_body(itr):
            nonlocal break_, do_return, retval_, s
            i = itr
            continue_ = False
            (break_,)

            def get_state_2():
                return (break_, do_return, retval_, s, continue_)

            def set_state_2(vars_):
                nonlocal break_, retval_, continue_, s, do_return
                break_, do_return, retval_, s, continue_ = vars_

            def if_body_2():
                nonlocal break_, retval_, continue_, s, do_return
                try:
                    do_return = True
                    retval_ = ag__.ld(s)
                except:
                    do_return = False
                    raise

            def else_body_2():
                nonlocal break_, retval_, continue_, s, do_return

                def get_state():
                    return (break_, continue_)

                def set_state(vars_):
                    nonlocal break_, continue_
                    break_, continue_ = vars_

                def if_body():
                    nonlocal break_, continue_
                    break_ = True
                    continue_ = True

                def else_body():
                    nonlocal break_, continue_
                    pass
                ag__.if_stmt(ag__.ld(i) > 10, if_body, else_body, get_state, set_state, ('break_', 'continue_'), 2)

                def get_state_1():
                    return (s,)

                def set_state_1(vars_):
                    nonlocal s
                    s, = vars_

                def if_body_1():
                    nonlocal s
                    s = ag__.ld(s) + ag__.ld(i)

                def else_body_1():
                    nonlocal s
                    pass
                ag__.if_stmt(ag__.not_(continue_), if_body_1, else_body_1, get_state_1, set_state_1, ('s',), 1)
            ag__.if_stmt(ag__.ld(s) > 50, if_body_2, else_body_2, get_state_2, set_state_2, ('break_', 'do_return', 'retval_', 's', 'continue_'), 4)

        def extra_test():
            nonlocal break_, do_return, retval_, s
            return ag__.and_(lambda: ag__.not_(do_return), lambda: ag__.not_(break_))
        continue_ = ag__.Undefined('continue_')
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (ag__.ld(n),), None, fscope), extra_test, loop_body, get_state_3, set_state_3, ('do_return', 'retval_', 's', 'break_'), {'iterate_names': 'i'})

        def get_state_4():
            return (do_return, retval_)

        def set_state_4(vars_):
            nonlocal do_return, retval_
            do_return, retval_ = vars_

        def if_body_3():
            nonlocal do_return, retval_
            try:
                do_return = True
                retval_ = -ag__.ld(s)
            except:
                do_return = False
                raise

        def else_body_3():
            nonlocal do_return, retval_
            pass
        ag__.if_stmt(ag__.not_(do_return), if_body_3, else_body_3, get_state_4, set_state_4, ('do_return', 'retval_'), 2)
        return fscope.ret(retval_, do_return)
