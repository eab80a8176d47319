def tf__def_in_branch(x, y):
    with ag__.FunctionScope('def_in_branch', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (pick,)

        def set_state(vars_):
            nonlocal pick
            pick, = vars_

        def if_body():
            nonlocal pick

            @ag__.autograph_artifact
            def pick(v):
                with ag__.FunctionScope('pick', 'fscope_1', ag__.STD) as fscope_1:
                    do_return_1 = False
                    retval__1 = ag__.UndefinedReturnValue()
                    try:
                        do_return_1 = True
                        retval__1 = ag__.ld(v) + ag__.ld(y)
                    except:
                        do_return_1 = False
                        raise
                    return fscope_1.ret(retval__1, do_return_1)

        def else_body():
            nonlocal pick

            @ag__.autograph_artifact
            def pick(v):
                with ag__.FunctionScope('pick', 'fscope_2', ag__.STD) as fscope_2:
                    do_return_2 = False
                    retval__2 = ag__.UndefinedReturnValue()
                    try:
                        do_return_2 = True
                        retval__2 = ag__.ld(v) - ag__.ld(y)
                    except:
                        do_return_2 = False
                        raise
                    return fscope_2.ret(retval__2, do_return_2)
        pick = ag__.Undefined('pick')
        ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, ('pick',), 1)
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(pick), (ag__.ld(x),), None, fscope)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
