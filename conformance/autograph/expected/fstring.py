def tf__fstring(x, name):
    with ag__.FunctionScope('fstring', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        s = f'{ag__.ld(name)}: {ag__.ld(x)!r:>10} {ag__.ld(x) + 1}'
        try:
            do_return = True
            retval_ = ag__.ld(s)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
