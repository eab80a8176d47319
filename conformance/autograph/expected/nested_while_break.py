def tf__nested_while_break(n):
    with ag__.FunctionScope('nested_while_break', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        i = 0

        def get_state_2():
            return (i,)

        def set_state_2(vars_):
            nonlocal i
            i, = vars_

        def loop_body_1():
            nonlocal i
            j = 0
            break__1 = False

            def get_state_1():
                return (break__1, j)

            def set_state_1(vars_):
                nonlocal break__1, j
                break__1, j = vars_

            def loop_body():
                nonlocal break__1, j
                continue__1 = False
                j = ag__.ld(j)
                j += 1

                def get_state():
                    return (break__1,)

                def set_state(vars_):
                    nonlocal break__1
                    break__1, = vars_

                def if_body():
                    nonlocal break__1
                    break__1 = True
                    continue__1 = True

                def else_body():
                    nonlocal break__1
                    pass
                ag__.if_stmt(ag__.ld(j) > ag__.ld(i), if_body, else_body, get_state, set_state, ('break__1',), 1)

            def loop_test():
                return ag__.and_(lambda: ag__.not_(break__1), lambda: True)
            ag__.while_stmt(loop_test, loop_body, get_state_1, set_state_1, ('break__1', 'j'), {})
            i = ag__.ld(i)
            i += 1

        def loop_test_1():
            return ag__.ld(i) < ag__.ld(n)
        break__1 = ag__.Undefined('break__1')
        j = ag__.Undefined('j')
        continue__1 = ag__.Undefined('continue__1')
        ag__.while_stmt(loop_test_1, loop_body_1, get_state_2, set_state_2, ('i',), {})
        try:
            do_return = True
            retval_ = ag__.ld(i)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
