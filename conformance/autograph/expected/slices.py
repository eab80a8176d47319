def tf__slices(x):
    with ag__.FunctionScope('slices', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        a = ag__.ld(x)[1:2, ::3]
        b = ag__.ld(x)[...]
        c = ag__.ld(x)[:, None]
        d = ag__.ld(x)[-1]
        e = ag__.ld(x)[1:]
        try:
            do_return = True
            retval_ = (ag__.ld(a), ag__.ld(b), ag__.ld(c), ag__.ld(d), ag__.ld(e))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
