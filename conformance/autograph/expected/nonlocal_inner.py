def tf__nonlocal_inner(x):
    with ag__.FunctionScope('nonlocal_inner', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        count = 0

        @ag__.autograph_artifact
        def bump(v):
            with ag__.FunctionScope('bump', 'fscope_1', ag__.STD) as fscope_1:
                do_return_1 = False
                retval__1 = ag__.UndefinedReturnValue()
                nonlocal count

                def get_state():
                    return (count,)

                def set_state(vars_):
                    nonlocal count
                    count, = vars_

                def if_body():
                    nonlocal count
                    count = ag__.ld(count) + ag__.ld(v)

                def else_body():
                    nonlocal count
                    pass
                ag__.if_stmt(ag__.ld(v) > 0, if_body, else_body, get_state, set_state, ('count',), 1)
                try:
                    do_return_1 = True
                    retval__1 = ag__.ld(count)
                except:
                    do_return_1 = False
                    raise
                return fscope_1.ret(retval__1, do_return_1)
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(bump), (ag__.ld(x),), None, fscope)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
