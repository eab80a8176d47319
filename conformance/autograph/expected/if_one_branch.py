def tf__if_one_branch(x):
    with ag__.FunctionScope('if_one_branch', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (z,)

        def set_state(vars_):
            nonlocal z
            z, = vars_

        def if_body():
            nonlocal z
            z = ag__.ld(x) * 2

        def else_body():
            nonlocal z
            pass
        z = ag__.Undefined('z')
        ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, ('z',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(z)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
