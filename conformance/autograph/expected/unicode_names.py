def tf__unicode_names(x):
    with ag__.FunctionScope('unicode_names', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        café = ag__.ld(x)

        def get_state():
            return (café,)

        def set_state(vars_):
            nonlocal café
            café, = vars_

        def if_body():
            nonlocal café
            café = -ag__.ld(café)

        def else_body():
            nonlocal café
            pass
        ag__.if_stmt(ag__.ld(café) > 0, if_body, else_body, get_state, set_state, ('café',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(café)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
