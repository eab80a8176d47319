def tf__for_over_tensor(t):
    with ag__.FunctionScope('for_over_tensor', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        acc = ag__.converted_call(ag__.ld(tf).zeros, ([3],), None, fscope)

        def get_state():
            return (acc,)

        def set_state(vars_):
            nonlocal acc
            acc, = vars_

        def loop_body(itr):
            nonlocal acc
            row = itr
            acc = ag__.ld(acc) + ag__.ld(row)
        row = ag__.Undefined('row')
        ag__.for_stmt(ag__.ld(t), None, loop_body, get_state, set_state, ('acc',), {'iterate_names': 'row'})
        try:
            do_return = True
            retval_ = ag__.ld(acc)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
