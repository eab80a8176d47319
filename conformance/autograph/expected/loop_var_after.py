def tf__loop_var_after(n):
    with ag__.FunctionScope('loop_var_after', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (i,)

        def set_state(vars_):
            nonlocal i
            i, = vars_

        def loop_body(itr):
            nonlocal i
            i = itr
            pass
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (ag__.ld(n),), None, fscope), None, loop_body, get_state, set_state, ('i',), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(i)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
