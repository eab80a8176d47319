def tf__multi_assign(x):
    with ag__.FunctionScope('multi_assign', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        a = b = ag__.ld(x)
        c, d = (ag__.ld(a), ag__.ld(b))
        a, *rest = [ag__.ld(c), ag__.ld(d), ag__.ld(x)]
        try:
            do_return = True
            retval_ = ag__.ld(a) + ag__.ld(b) + ag__.ld(c) + ag__.ld(d)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
