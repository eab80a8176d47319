def tf__fstring_quotes(d):
    with ag__.FunctionScope('fstring_quotes', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            do_return = True
            retval_ = f"{ag__.ld(d)['k']} and {ag__.ld(d)['j']!s}"
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
