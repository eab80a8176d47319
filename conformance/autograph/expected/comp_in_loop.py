def tf__comp_in_loop(n):
    with ag__.FunctionScope('comp_in_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        out = []

        def get_state():
            return (out,)

        def set_state(vars_):
            nonlocal out
            out, = vars_

        def loop_body(itr):
            nonlocal out
            i = itr
            out = ag__.ld(out) + [ag__.ld(i) * ag__.ld(j) for j in ag__.converted_call(ag__.ld(range), (ag__.ld(i),), None, fscope)]
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope), None, loop_body, get_state, set_state, ('out',), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(out)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
