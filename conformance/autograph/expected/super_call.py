def tf__super_call(self, x):
    with ag__.FunctionScope('super_call', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        y = ag__.converted_call(ag__.converted_call(ag__.ld(super), (), None, fscope).forward, (ag__.ld(x),), None, fscope)

        def get_state():
            return (y,)

        def set_state(vars_):
            nonlocal y
            y, = vars_

        def if_body():
            nonlocal y
            y = ag__.converted_call(ag__.ld(self).print, (ag__.ld(x),), None, fscope)

        def else_body():
            nonlocal y
            pass
        ag__.if_stmt(ag__.ld(y) is None, if_body, else_body, get_state, set_state, ('y',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(y)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
