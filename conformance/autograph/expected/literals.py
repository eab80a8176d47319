def tf__literals(x):
    with ag__.FunctionScope('literals', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        a = "it's"
        b = 'tab\there\n'
        c = b'\x00bytes'
        d = 31 + 15 + 5 + 1000
        e = 1e-07 + 2.5 + 1e+20 + 3j + 0.1
        f = 'café 😀'
        g = 'multi\nline'
        try:
            do_return = True
            retval_ = (ag__.ld(a), ag__.ld(b), ag__.ld(c), ag__.ld(d), ag__.ld(e), ag__.ld(f), ag__.ld(g))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
