def tf__comparisons(a, b, c, d):
    with ag__.FunctionScope('comparisons', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        p = ag__.and_(lambda: ag__.and_(lambda: ag__.ld(a) < ag__.ld(b), lambda: ag__.ld(b) <= ag__.ld(c)), lambda: ag__.ld(c) < ag__.ld(d))
        q = ag__.ld(a) is not None
        r = ag__.ld(b) not in ag__.ld(c)
        s = ag__.not_(ag__.and_(lambda: ag__.ld(a), lambda: ag__.ld(b)))
        try:
            do_return = True
            retval_ = (ag__.ld(p), ag__.ld(q), ag__.ld(r), ag__.ld(s))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
