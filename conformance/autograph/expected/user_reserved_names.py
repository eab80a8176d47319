def tf__user_reserved_names(n):
    with ag__.FunctionScope('user_reserved_names', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        loop_body = 0
        break_ = 1
        break__1 = False

        def get_state_2():
            return (loop_body, break__1)

        def set_state_2(vars_):
            nonlocal break__1, loop_body
            loop_body, break__1 = vars_

        def loop_body_1(itr):
            nonlocal break__1, loop_body
            i = itr
            continue_ = False
            (break__1,)

            def get_state():
                return (break__1, continue_)

            def set_state(vars_):
                nonlocal break__1, continue_
                break__1, continue_ = vars_

            def if_body():
                nonlocal break__1, continue_
                break__1 = True
                continue_ = True

            def else_body():
                nonlocal break__1, continue_
                pass
            ag__.if_stmt(ag__.ld(i) > ag__.ld(break_), if_body, else_body, get_state, set_state, ('break__1', 'continue_'), 2)

            def get_state_1():
                return (loop_body,)

            def set_state_1(vars_):
                nonlocal loop_body
                loop_body, = vars_

            def if_body_1():
                nonlocal loop_body
                loop_body = ag__.ld(loop_body) + ag__.ld(i)

            def else_body_1():
                nonlocal loop_body
                pass
            ag__.if_stmt(ag__.not_(continue_), if_body_1, else_body_1, get_state_1, set_state_1, ('loop_body',), 1)

        def extra_test():
            nonlocal break__1, loop_body
            return ag__.not_(break__1)
        continue_ = ag__.Undefined('continue_')
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope), extra_test, loop_body_1, get_state_2, set_state_2, ('loop_body', 'break__1'), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(loop_body)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
