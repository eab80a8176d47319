def tf__nested_ifexp(x):
    with ag__.FunctionScope('nested_ifexp', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            do_return = True
            retval_ = ag__.if_exp(ag__.ld(x) > 0, lambda: 1 if ag__.ld(x) > 5 else 2, lambda: 3 if ag__.ld(x) < -5 else 4, 'x > 0')
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
