def tf__test_with_lambda(xs, t):
    with ag__.FunctionScope('test_with_lambda', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (r,)

        def set_state(vars_):
            nonlocal r
            r, = vars_

        def if_body():
            nonlocal r
            r = [ag__.ld(v) for v in ag__.ld(xs) if ag__.ld(v) > ag__.ld(t)]

        def else_body():
            nonlocal r
            r = []
        r = ag__.Undefined('r')
        ag__.if_stmt(ag__.converted_call(ag__.ld(any), (ag__.converted_call(ag__.ld(map), (ag__.autograph_artifact(lambda v: ag__.ld(v) > ag__.ld(t)), ag__.ld(xs)), None, fscope),), None, fscope), if_body, else_body, get_state, set_state, ('r',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(r)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
