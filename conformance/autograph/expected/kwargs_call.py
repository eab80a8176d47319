def tf__kwargs_call(x):
    with ag__.FunctionScope('kwargs_call', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(tf).reduce_sum, (ag__.ld(x),), dict(axis=0, keepdims=True), fscope)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
