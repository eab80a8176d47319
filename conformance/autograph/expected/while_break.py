def tf__while_break(x):
    with ag__.FunctionScope('while_break', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        break_ = False

        def get_state_2():
            return (x, break_)

        def set_state_2(vars_):
            nonlocal break_, x
            x, break_ = vars_

        def loop_body():
            nonlocal break_, x
            continue_ = False

            def get_state():
                return (break_, continue_)

            def set_state(vars_):
                nonlocal break_, continue_
                break_, continue_ = vars_

            def if_body():
                nonlocal break_, continue_
                break_ = True
                continue_ = True

            def else_body():
                nonlocal break_, continue_
                pass
            ag__.if_stmt(ag__.ld(x) % 7 == 0, if_body, else_body, get_state, set_state, ('break_', 'continue_'), 2)

            def get_state_1():
                return (x,)

            def set_state_1(vars_):
                nonlocal x
                x, = vars_

            def if_body_1():
                nonlocal x
                x = ag__.ld(x) + 3

            def else_body_1():
                nonlocal x
                pass
            ag__.if_stmt(ag__.not_(continue_), if_body_1, else_body_1, get_state_1, set_state_1, ('x',), 1)

        def loop_test():
            return ag__.and_(lambda: ag__.not_(break_), lambda: ag__.ld(x) < 100)
        continue_ = ag__.Undefined('continue_')
        ag__.while_stmt(loop_test, loop_body, get_state_2, set_state_2, ('x', 'break_'), {})
        try:
            do_return = True
            retval_ = ag__.ld(x)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
