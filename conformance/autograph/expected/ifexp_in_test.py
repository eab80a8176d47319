def tf__ifexp_in_test(x, y):
    with ag__.FunctionScope('ifexp_in_test', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (z,)

        def set_state(vars_):
            nonlocal z
            z, = vars_

        def if_body():
            nonlocal z
            z = 1

        def else_body():
            nonlocal z
            z = 2
        z = ag__.Undefined('z')
        ag__.if_stmt(ag__.if_exp(ag__.ld(y), lambda: ag__.ld(x), lambda: -ag__.ld(x), 'y') > 0, if_body, else_body, get_state, set_state, ('z',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(z)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
