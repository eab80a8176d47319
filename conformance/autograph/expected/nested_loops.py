def tf__nested_loops(n, m):
    with ag__.FunctionScope('nested_loops', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        s = 0

        def get_state_1():
            return (s,)

        def set_state_1(vars_):
            nonlocal s
            s, = vars_

        def loop_body_1(itr_1):
            nonlocal s
            i = itr_1

            def get_state():
                return (s,)

            def set_state(vars_):
                nonlocal s
                s, = vars_

            def loop_body(itr):
                nonlocal s
                j = itr
                s = ag__.ld(s)
                s += i * j
            ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (ag__.ld(m),), None, fscope), None, loop_body, get_state, set_state, ('s',), {'iterate_names': 'j'})
        j = ag__.Undefined('j')
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (ag__.ld(n),), None, fscope), None, loop_body_1, get_state_1, set_state_1, ('s',), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(s)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
