def tf__unpacking(xs, d):
    with ag__.FunctionScope('unpacking', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        a = [*ag__.ld(xs), 1]
        b = {**ag__.ld(d), 'k': 1}
        c = ag__.converted_call(ag__.ld(set), (), None, fscope)
        e = {1, 2}
        f = ()
        g = (1,)
        try:
            do_return = True
            retval_ = (ag__.ld(a), ag__.ld(b), ag__.ld(c), ag__.ld(e), ag__.ld(f), ag__.ld(g))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
