def tf__multiple_targets_if(x):
    with ag__.FunctionScope('multiple_targets_if', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        a, b = (0, 0)

        def get_state():
            return (a, b)

        def set_state(vars_):
            nonlocal b, a
            a, b = vars_

        def if_body():
            nonlocal b, a
            a, b = (ag__.ld(b), ag__.ld(a))
            c = ag__.ld(a)

        def else_body():
            nonlocal b, a
            pass
        c = ag__.Undefined('c')
        ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, ('a', 'b'), 2)
        try:
            do_return = True
            retval_ = (ag__.ld(a), ag__.ld(b))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
