def tf__def_in_branch(x, y):
    with ag__.FunctionScope('def_in_branch', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (Box, m, pick)

        def set_state(vars_):
            nonlocal pick, m, Box
            Box, m, pick = vars_

        def if_body():
            nonlocal pick, m, Box

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

            class Box:
                pass
            import math as m

        def else_body():
            nonlocal pick, m, Box

            @ag__.autograph_artifact
            def other(v):
                with ag__.FunctionScope('other', 'fscope_2', ag__.STD) as fscope_2:
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
        m = ag__.Undefined('m')
        Box = ag__.Undefined('Box')
        other = ag__.Undefined('other')
        ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, ('Box', 'm', 'pick'), 3)
        try:
            do_return = True
            retval_ = (ag__.converted_call(ag__.ld(pick), (ag__.ld(x),), None, fscope), ag__.ld(Box), ag__.ld(m))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
