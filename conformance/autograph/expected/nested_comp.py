def tf__nested_comp(m, k):
    with ag__.FunctionScope('nested_comp', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            do_return = True
            retval_ = [[ag__.ld(v) + ag__.ld(k) for v in ag__.ld(row) if ag__.ld(v) > ag__.ld(k)] for row in ag__.ld(m)]
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
