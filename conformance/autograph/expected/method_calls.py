def tf__method_calls(x):
    with ag__.FunctionScope('method_calls', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        y = ag__.converted_call(ag__.ld(tf).math.add, (ag__.ld(x), 1), None, fscope)
        z = ag__.if_exp(ag__.converted_call(ag__.ld(hasattr), (ag__.ld(y), 'numpy'), None, fscope), lambda: ag__.converted_call(ag__.ld(y).numpy, (), None, fscope), lambda: ag__.ld(y), "ag__.converted_call(hasattr, (y, 'numpy'), None, fscope)")
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(tf).cast, (ag__.ld(z), ag__.ld(tf).float32), None, fscope)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
