def tf__comprehensions(xs):
    with ag__.FunctionScope('comprehensions', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        a = [ag__.ld(v) * 2 for v in ag__.ld(xs) if ag__.ld(v) > 0]
        b = {ag__.ld(k): ag__.ld(v) for k, v in ag__.converted_call(ag__.ld(zip), (ag__.ld(xs), ag__.ld(xs)), None, fscope)}
        c = {ag__.ld(v) for v in ag__.ld(xs)}
        d = ag__.converted_call(ag__.ld(sum), ((ag__.ld(v) for v in ag__.ld(xs)),), None, fscope)
        try:
            do_return = True
            retval_ = (ag__.ld(a), ag__.ld(b), ag__.ld(c), ag__.ld(d))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
