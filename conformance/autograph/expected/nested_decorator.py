def tf__nested_decorator(f, x):
    with ag__.FunctionScope('nested_decorator', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        @ag__.converted_call(functools.wraps, (f,), None, fscope)
        @ag__.autograph_artifact
        def wrapper(*a):
            with ag__.FunctionScope('wrapper', 'fscope_1', ag__.STD) as fscope_1:
                do_return_1 = False
                retval__1 = ag__.UndefinedReturnValue()

                def get_state():
                    return (a,)

                def set_state(vars_):
                    nonlocal a
                    a, = vars_

                def loop_body(itr):
                    nonlocal a
                    i = itr
                    a = ag__.ld(a) + (ag__.ld(i),)
                i = ag__.Undefined('i')
                ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(x),), None, fscope_1), None, loop_body, get_state, set_state, ('a',), {'iterate_names': 'i'})
                try:
                    do_return_1 = True
                    retval__1 = ag__.converted_call(ag__.ld(f), tuple(ag__.ld(a)), None, fscope_1)
                except:
                    do_return_1 = False
                    raise
                return fscope_1.ret(retval__1, do_return_1)
        try:
            do_return = True
            retval_ = ag__.ld(wrapper)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
