def tf__defaults(x, n=None, *args, k=None, **kw):
    with ag__.FunctionScope('defaults', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            do_return = True
            retval_ = ag__.ld(x) + ag__.ld(n) + ag__.ld(k)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
