def tf__subscript_var(d, keys):
    with ag__.FunctionScope('subscript_var', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return ()

        def set_state(block_vars):
            pass

        def loop_body(itr):
            k = itr
            ag__.ld(d)[ag__.ld(k)] = ag__.ld(d)[ag__.ld(k)] * 2
        k = ag__.Undefined('k')
        ag__.for_stmt(ag__.ld(keys), None, loop_body, get_state, set_state, (), {'iterate_names': 'k'})
        try:
            do_return = True
            retval_ = ag__.ld(d)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
