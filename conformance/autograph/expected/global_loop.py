def tf__global_loop(n):
    with ag__.FunctionScope('global_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        global TOTAL

        def get_state():
            return (TOTAL,)

        def set_state(vars_):
            global TOTAL
            TOTAL, = vars_

        def loop_body(itr):
            global TOTAL
            i = itr
            TOTAL = ag__.ld(TOTAL) + ag__.ld(i)
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (ag__.ld(n),), None, fscope), None, loop_body, get_state, set_state, ('TOTAL',), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(TOTAL)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
