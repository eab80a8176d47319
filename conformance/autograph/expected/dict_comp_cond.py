def tf__dict_comp_cond(keys, lim):
    with ag__.FunctionScope('dict_comp_cond', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            do_return = True
            retval_ = {ag__.ld(k): ag__.converted_call(ag__.ld(len), (ag__.ld(k),), None, fscope) for k in ag__.ld(keys) if ag__.converted_call(ag__.ld(len), (ag__.ld(k),), None, fscope) < ag__.ld(lim)}
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
