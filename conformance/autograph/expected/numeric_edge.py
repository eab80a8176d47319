def tf__numeric_edge(x):
    with ag__.FunctionScope('numeric_edge', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        a = 1.0 + 1.5e+300 * 10 + 0.000123 + 1.2345678901234568e+17
        b = 1000000j + 0.0 + 0 + 0.5j
        try:
            do_return = True
            retval_ = (ag__.ld(x) * ag__.ld(a), ag__.ld(b))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
