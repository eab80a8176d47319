def tf__nested_docstring(x):
    with ag__.FunctionScope('nested_docstring', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        @ag__.autograph_artifact
        def helper(v):
            """Helper docs."""
            with ag__.FunctionScope('helper', 'fscope_1', ag__.STD) as fscope_1:
                do_return_1 = False
                retval__1 = ag__.UndefinedReturnValue()

                def get_state():
                    return (v,)

                def set_state(vars_):
                    nonlocal v
                    v, = vars_

                def loop_body():
                    nonlocal v
                    v = ag__.ld(v) // 2

                def loop_test():
                    return ag__.ld(v) > 100
                ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('v',), {})
                try:
                    do_return_1 = True
                    retval__1 = ag__.ld(v)
                except:
                    do_return_1 = False
                    raise
                return fscope_1.ret(retval__1, do_return_1)
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(helper), (ag__.ld(x),), None, fscope)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
