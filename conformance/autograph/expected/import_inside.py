def tf__import_inside(x):
    with ag__.FunctionScope('import_inside', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        import math
        from os import path as p
        try:
            do_return = True
            retval_ = (ag__.converted_call(ag__.ld(math).sqrt, (ag__.ld(x),), None, fscope), ag__.ld(p))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
