def tf__try_except(x):
    with ag__.FunctionScope('try_except', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            y = ag__.ld(x) + 1
        except ValueError as e:
            y = 0
        finally:
            x = 1
        try:
            do_return = True
            retval_ = ag__.ld(y)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
