def tf__lambda_in_loop(xs):
    with ag__.FunctionScope('lambda_in_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        total = 0

        def get_state():
            return (total,)

        def set_state(vars_):
            nonlocal total
            total, = vars_

        def loop_body(itr):
            nonlocal total
            x = itr
            f = ag__.autograph_artifact(lambda v, k=2, *a: ag__.ld(v) * ag__.ld(k))
            total = ag__.ld(total) + ag__.converted_call(ag__.ld(f), (ag__.ld(x),), None, fscope)
        x = ag__.Undefined('x')
        f = ag__.Undefined('f')
        ag__.for_stmt(ag__.ld(xs), None, loop_body, get_state, set_state, ('total',), {'iterate_names': 'x'})
        try:
            do_return = True
            retval_ = ag__.ld(total)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
