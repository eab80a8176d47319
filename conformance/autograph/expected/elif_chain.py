def tf__elif_chain(x):
    with ag__.FunctionScope('elif_chain', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state_1():
            return (y,)

        def set_state_1(vars_):
            nonlocal y
            y, = vars_

        def if_body_1():
            nonlocal y
            y = 1

        def else_body_1():
            nonlocal y

            def get_state():
                return (y,)

            def set_state(vars_):
                nonlocal y
                y, = vars_

            def if_body():
                nonlocal y
                y = -1

            def else_body():
                nonlocal y
                y = 0
            y = ag__.Undefined('y')
            ag__.if_stmt(ag__.ld(x) < 0, if_body, else_body, get_state, set_state, ('y',), 1)
        y = ag__.Undefined('y')
        ag__.if_stmt(ag__.ld(x) > 0, if_body_1, else_body_1, get_state_1, set_state_1, ('y',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(y)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
