def tf__nested_def_nonlocal_loop(n):
    with ag__.FunctionScope('nested_def_nonlocal_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        total = 0

        @ag__.autograph_artifact
        def run():
            with ag__.FunctionScope('run', 'fscope_1', ag__.STD) as fscope_1:
                nonlocal total

                def get_state():
                    return (total,)

                def set_state(vars_):
                    nonlocal total
                    total, = vars_

                def loop_body(itr):
                    nonlocal total
                    i = itr
                    total = ag__.ld(total) + ag__.ld(i)
                i = ag__.Undefined('i')
                ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope_1), None, loop_body, get_state, set_state, ('total',), {'iterate_names': 'i'})
        ag__.converted_call(ag__.ld(run), (), None, fscope)
        try:
            do_return = True
            retval_ = ag__.ld(total)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
