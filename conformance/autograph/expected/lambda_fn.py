def tf__lambda_fn(x):
    with ag__.FunctionScope('lambda_fn', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        f = ag__.autograph_artifact(lambda y: ag__.ld(y) + 1)
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(f), (ag__.ld(x),), None, fscope)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
