def tf__tuple_return_loop(n):
    with ag__.FunctionScope('tuple_return_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        a, b = (0, 1)

        def get_state():
            return (a, b)

        def set_state(vars_):
            nonlocal b, a
            a, b = vars_

        def loop_body(itr):
            nonlocal b, a
            _ = itr
            a, b = (ag__.ld(b), ag__.ld(a) + ag__.ld(b))
        _ = ag__.Undefined('_')
        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope), None, loop_body, get_state, set_state, ('a', 'b'), {'iterate_names': '_'})
        try:
            do_return = True
            retval_ = (ag__.ld(a), ag__.ld(b))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
