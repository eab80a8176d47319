def tf__return_nested_if(x, y):
    with ag__.FunctionScope('return_nested_if', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state_3():
            return (do_return, retval_, x)

        def set_state_3(vars_):
            nonlocal x, do_return, retval_
            do_return, retval_, x = vars_

        def loop_body():
            nonlocal x, do_return, retval_

            def get_state_1():
                return (do_return, retval_)

            def set_state_1(vars_):
                nonlocal do_return, retval_
                do_return, retval_ = vars_

            def if_body_1():
                nonlocal do_return, retval_

                def get_state():
                    return (do_return, retval_)

                def set_state(vars_):
                    nonlocal do_return, retval_
                    do_return, retval_ = vars_

                def if_body():
                    nonlocal do_return, retval_
                    try:
                        do_return = True
                        retval_ = ag__.ld(x)
                    except:
                        do_return = False
                        raise

                def else_body():
                    nonlocal do_return, retval_
                    pass
                ag__.if_stmt(ag__.ld(x) > 5, if_body, else_body, get_state, set_state, ('do_return', 'retval_'), 2)

            def else_body_1():
                nonlocal do_return, retval_
                pass
            ag__.if_stmt(ag__.ld(y) > 0, if_body_1, else_body_1, get_state_1, set_state_1, ('do_return', 'retval_'), 2)

            def get_state_2():
                return (x,)

            def set_state_2(vars_):
                nonlocal x
                x, = vars_

            def if_body_2():
                nonlocal x
                x = ag__.ld(x) + 1

            def else_body_2():
                nonlocal x
                pass
            ag__.if_stmt(ag__.not_(do_return), if_body_2, else_body_2, get_state_2, set_state_2, ('x',), 1)

        def loop_test():
            return ag__.and_(lambda: ag__.not_(do_return), lambda: ag__.ld(x) < 10)
        ag__.while_stmt(loop_test, loop_body, get_state_3, set_state_3, ('do_return', 'retval_', 'x'), {})

        def get_state_4():
            return (do_return, retval_)

        def set_state_4(vars_):
            nonlocal do_return, retval_
            do_return, retval_ = vars_

        def if_body_3():
            nonlocal do_return, retval_
            try:
                do_return = True
                retval_ = ag__.ld(y)
            except:
                do_return = False
                raise

        def else_body_3():
            nonlocal do_return, retval_
            pass
        ag__.if_stmt(ag__.not_(do_return), if_body_3, else_body_3, get_state_4, set_state_4, ('do_return', 'retval_'), 2)
        return fscope.ret(retval_, do_return)
