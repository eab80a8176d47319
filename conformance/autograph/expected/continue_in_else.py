def tf__continue_in_else(n):
    with ag__.FunctionScope('continue_in_else', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        s = 0

        def get_state_2():
            return (s,)

        def set_state_2(vars_):
            nonlocal s
            s, = vars_

        def loop_body(itr):
            nonlocal s
            i = itr
            continue_ = False

            def get_state():
                return (continue_, s)

            def set_state(vars_):
                nonlocal continue_, s
                continue_, s = vars_

            def if_body():
                nonlocal continue_, s
                s = ag__.ld(s)
                s += 1

            def else_body():
                nonlocal continue_, s
                continue_ = True
            ag__.if_stmt(ag__.ld(i) > 3, if_body, else_body, get_state, set_state, ('continue_', 's'), 2)

            def get_state_1():
                return (s,)

            def set_state_1(vars_):
                nonlocal s
                s, = vars_

            def if_body_1():
                nonlocal s
                s = ag__.ld(s)
                s += 2

            def else_body_1():
                nonlocal s
                pass
            ag__.if_stmt(ag__.not_(continue_), if_body_1, else_body_1, get_state_1, set_state_1, ('s',), 1)
        continue_ = ag__.Undefined('continue_')
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope), None, loop_body, get_state_2, set_state_2, ('s',), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(s)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
