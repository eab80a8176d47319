def tf__handler_var(x):
    with ag__.FunctionScope('handler_var', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            y = 1 / ag__.ld(x)
        except ZeroDivisionError:
            y = 0

        def get_state():
            return (y,)

        def set_state(vars_):
            nonlocal y
            y, = vars_

        def if_body():
            nonlocal y
            y = ag__.ld(y) + 1

        def else_body():
            nonlocal y
            pass
        ag__.if_stmt(ag__.ld(y) > 0, if_body, else_body, get_state, set_state, ('y',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(y)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
