def tf__ternary_return(a, b):
    with ag__.FunctionScope('ternary_return', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            do_return = True
            retval_ = ag__.if_exp(ag__.ld(a) > ag__.ld(b), lambda: ag__.ld(a), lambda: ag__.ld(b) if ag__.ld(b) > 0 else 0, 'a > b')
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
