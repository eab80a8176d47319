def tf__expr_zoo(a, b, c, m):
    with ag__.FunctionScope('expr_zoo', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        p = ~ag__.ld(a) & ag__.ld(b) | ag__.ld(c) ^ ag__.ld(a)
        q = ag__.ld(m) @ ag__.ld(m)
        r = -ag__.ld(a) ** (-ag__.ld(b))
        s = ag__.converted_call(ag__.converted_call(ag__.ld(a).b, (), None, fscope).c[ag__.ld(b)], (ag__.ld(c),), None, fscope)
        t = ag__.converted_call(ag__.ld(sum), ((ag__.ld(x) for x in ag__.ld(a)),), dict(start=0), fscope)
        u = (ag__.ld(a)[::2], ag__.ld(a)[..., 1], ag__.ld(a)[1:-1:2])
        v = ag__.if_exp(False, lambda: ag__.converted_call(ag__.ld(f), tuple(ag__.ld(a)) + (ag__.ld(b),) + tuple(ag__.ld(c)), None, fscope), lambda: ag__.converted_call(ag__.ld(g), (), dict(**ag__.ld(c)), fscope), 'False')
        w = {'x': {'y': [1, (2,)]}}
        try:
            do_return = True
            retval_ = (ag__.ld(p), ag__.ld(q), ag__.ld(r), ag__.ld(s), ag__.ld(t), ag__.ld(u), ag__.ld(v), ag__.ld(w))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
