def tf__logical_ops(a, b, c):
    with ag__.FunctionScope('logical_ops', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        p = ag__.and_(lambda: ag__.ld(a), lambda: ag__.ld(b))
        q = ag__.or_(lambda: ag__.ld(a), lambda: ag__.or_(lambda: ag__.ld(b), lambda: ag__.ld(c)))
        r = ag__.not_(ag__.ld(a))
        s = ag__.and_(lambda: 0 < ag__.ld(a), lambda: ag__.ld(a) < 10)
        try:
            do_return = True
            retval_ = (ag__.ld(p), ag__.ld(q), ag__.ld(r), ag__.ld(s))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
