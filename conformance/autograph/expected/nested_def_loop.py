def tf__nested_def_loop(x, n):
    with ag__.FunctionScope('nested_def_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        @ag__.autograph_artifact
        def step(v):
            with ag__.FunctionScope('step', 'fscope_1', ag__.STD) as fscope_1:
                do_return_1 = False
                retval__1 = ag__.UndefinedReturnValue()
                s = ag__.ld(v)

                def get_state():
                    return (s,)

                def set_state(vars_):
                    nonlocal s
                    s, = vars_

                def loop_body(itr):
                    nonlocal s
                    i = itr
                    s = ag__.ld(s) + ag__.ld(i)
                i = ag__.Undefined('i')
                ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (ag__.ld(n),), None, fscope_1), None, loop_body, get_state, set_state, ('s',), {'iterate_names': 'i'})
                try:
                    do_return_1 = True
                    retval__1 = ag__.ld(s)
                except:
                    do_return_1 = False
                    raise
                return fscope_1.ret(retval__1, do_return_1)
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(step), (ag__.ld(x),), None, fscope)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
