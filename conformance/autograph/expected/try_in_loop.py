def tf__try_in_loop(xs):
    with ag__.FunctionScope('try_in_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        s = 0

        def get_state_1():
            return (s,)

        def set_state_1(vars_):
            nonlocal s
            s, = vars_

        def loop_body(itr):
            nonlocal s
            x = itr
            continue_ = False
            try:
                v = ag__.converted_call(ag__.ld(int), (ag__.ld(x),), None, fscope)
            except ValueError:
                continue_ = True

            def get_state():
                return (s,)

            def set_state(vars_):
                nonlocal s
                s, = vars_

            def if_body():
                nonlocal s
                s = ag__.ld(s)
                s += v

            def else_body():
                nonlocal s
                pass
            ag__.if_stmt(ag__.not_(continue_), if_body, else_body, get_state, set_state, ('s',), 1)
        x = ag__.Undefined('x')
        v = ag__.Undefined('v')
        continue_ = ag__.Undefined('continue_')
        ag__.for_stmt(ag__.ld(xs), None, loop_body, get_state_1, set_state_1, ('s',), {'iterate_names': 'x'})
        try:
            do_return = True
            retval_ = ag__.ld(s)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
