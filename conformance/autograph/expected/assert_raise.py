def tf__assert_raise(x):
    with ag__.FunctionScope('assert_raise', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        assert ag__.ld(x) is not None, 'x is None'

        def get_state():
            return ()

        def set_state(block_vars):
            pass

        def if_body():
            raise ag__.converted_call(ag__.ld(ValueError), ('negative: %s' % ag__.ld(x),), None, fscope)

        def else_body():
            pass
        ag__.if_stmt(ag__.ld(x) < 0, if_body, else_body, get_state, set_state, (), 0)
        try:
            do_return = True
            retval_ = ag__.ld(x)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
