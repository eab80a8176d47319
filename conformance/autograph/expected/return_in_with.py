def tf__return_in_with(x):
    with ag__.FunctionScope('return_in_with', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        with ag__.ld(tf).name_scope('r'):

            def get_state():
                return (do_return, retval_, x)

            def set_state(vars_):
                nonlocal x, do_return, retval_
                do_return, retval_, x = vars_

            def if_body():
                nonlocal x, do_return, retval_
                try:
                    do_return = True
                    retval_ = ag__.ld(x)
                except:
                    do_return = False
                    raise

            def else_body():
                nonlocal x, do_return, retval_
                x = ag__.ld(x) * 2
            ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, ('do_return', 'retval_', 'x'), 3)

        def get_state_1():
            return (do_return, retval_)

        def set_state_1(vars_):
            nonlocal do_return, retval_
            do_return, retval_ = vars_

        def if_body_1():
            nonlocal do_return, retval_
            try:
                do_return = True
                retval_ = ag__.ld(x)
            except:
                do_return = False
                raise

        def else_body_1():
            nonlocal do_return, retval_
            pass
        ag__.if_stmt(ag__.not_(do_return), if_body_1, else_body_1, get_state_1, set_state_1, ('do_return', 'retval_'), 2)
        return fscope.ret(retval_, do_return)
