def tf__if_exp(x):
    with ag__.FunctionScope('if_exp', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        y = ag__.if_exp(ag__.ld(x) > 0, lambda: ag__.ld(x), lambda: -ag__.ld(x), 'x > 0')
        try:
            do_return = True
            retval_ = ag__.ld(y)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
