def tf__def_in_loop(n):
    with ag__.FunctionScope('def_in_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        acc = 0

        def get_state():
            return (acc,)

        def set_state(vars_):
            nonlocal acc
            acc, = vars_

        def loop_body(itr):
            nonlocal acc
            i = itr

            @ag__.autograph_artifact
            def add(v):
                with ag__.FunctionScope('add', 'fscope_1', ag__.STD) as fscope_1:
                    do_return_1 = False
                    retval__1 = ag__.UndefinedReturnValue()
                    try:
                        do_return_1 = True
                        retval__1 = ag__.ld(v) + ag__.ld(acc)
                    except:
                        do_return_1 = False
                        raise
                    return fscope_1.ret(retval__1, do_return_1)
            acc = ag__.converted_call(ag__.ld(add), (ag__.ld(i),), None, fscope)
        add = ag__.Undefined('add')
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope), None, loop_body, get_state, set_state, ('acc',), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(acc)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
