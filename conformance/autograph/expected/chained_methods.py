def tf__chained_methods(s):
    with ag__.FunctionScope('chained_methods', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        parts = ag__.converted_call(ag__.converted_call(ag__.converted_call(ag__.ld(s).strip, (), None, fscope).lower, (), None, fscope).split, (',',), None, fscope)
        try:
            do_return = True
            retval_ = [ag__.converted_call(ag__.ld(p).strip, (), None, fscope) for p in ag__.ld(parts) if ag__.ld(p)]
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
