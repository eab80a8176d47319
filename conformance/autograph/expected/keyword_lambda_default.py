def tf__keyword_lambda_default(xs, *, key=None):
    with ag__.FunctionScope('keyword_lambda_default', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        f = ag__.if_exp(ag__.ld(key) is not None, lambda: ag__.ld(key), lambda: ag__.autograph_artifact(lambda v: ag__.ld(v)), 'key is not None')
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(sorted), (ag__.ld(xs),), dict(key=ag__.ld(f)), fscope)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
