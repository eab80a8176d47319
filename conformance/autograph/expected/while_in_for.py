def tf__while_in_for(n):
    with ag__.FunctionScope('while_in_for', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        s = 0

        def get_state_1():
            return (s,)

        def set_state_1(vars_):
            nonlocal s
            s, = vars_

        def loop_body_1(itr):
            nonlocal s
            i = itr
            j = 0

            def get_state():
                return (s, j)

            def set_state(vars_):
                nonlocal j, s
                s, j = vars_

            def loop_body():
                nonlocal j, s
                s = ag__.ld(s)
                s += j
                j = ag__.ld(j)
                j += 1

            def loop_test():
                return ag__.ld(j) < ag__.ld(i)
            ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('s', 'j'), {})
        j = ag__.Undefined('j')
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope), None, loop_body_1, get_state_1, set_state_1, ('s',), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(s)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
