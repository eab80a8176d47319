def tf__input_only(x, n):
    with ag__.FunctionScope('input_only', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        y = 0

        def get_state():
            return (y, x)

        def set_state(vars_):
            nonlocal x, y
            y, x = vars_

        def if_body():
            nonlocal x, y
            y = ag__.ld(x) + 1
            x = ag__.ld(y) * 2

        def else_body():
            nonlocal x, y
            pass
        ag__.if_stmt(ag__.ld(n) > 0, if_body, else_body, get_state, set_state, ('y', 'x'), 1)
        try:
            do_return = True
            retval_ = ag__.ld(y)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
