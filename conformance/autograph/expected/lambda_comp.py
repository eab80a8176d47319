def tf__lambda_comp(xs):
    with ag__.FunctionScope('lambda_comp', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        fs = [ag__.autograph_artifact(lambda v, i=ag__.ld(i): ag__.ld(v) + ag__.ld(i)) for i in ag__.converted_call(ag__.ld(range), (3,), None, fscope)]
        try:
            do_return = True
            retval_ = [ag__.converted_call(ag__.ld(f), (ag__.ld(x),), None, fscope) for f in ag__.ld(fs) for x in ag__.ld(xs)]
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
