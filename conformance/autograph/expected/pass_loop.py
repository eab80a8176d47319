def tf__pass_loop(n):
    with ag__.FunctionScope('pass_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return ()

        def set_state(block_vars):
            pass

        def loop_body(itr):
            i = itr
            pass
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope), None, loop_body, get_state, set_state, (), {'iterate_names': 'i'})

        def get_state_1():
            return (n,)

        def set_state_1(vars_):
            nonlocal n
            n, = vars_

        def loop_body_1():
            nonlocal n
            n = ag__.ld(n)
            n -= 1

        def loop_test():
            return ag__.ld(n) > 0
        ag__.while_stmt(loop_test, loop_body_1, get_state_1, set_state_1, ('n',), {})
        try:
            do_return = True
            retval_ = ag__.ld(n)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
