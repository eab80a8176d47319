def tf__while_true_break(x):
    with ag__.FunctionScope('while_true_break', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        break_ = False

        def get_state_1():
            return (x, break_)

        def set_state_1(vars_):
            nonlocal break_, x
            x, break_ = vars_

        def loop_body():
            nonlocal break_, x
            continue_ = False
            x = ag__.ld(x) + 1

            def get_state():
                return (break_,)

            def set_state(vars_):
                nonlocal break_
                break_, = vars_

            def if_body():
                nonlocal break_
                break_ = True
                continue_ = True

            def else_body():
                nonlocal break_
                pass
            ag__.if_stmt(ag__.ld(x) > 5, if_body, else_body, get_state, set_state, ('break_',), 1)

        def loop_test():
            return ag__.and_(lambda: ag__.not_(break_), lambda: True)
        continue_ = ag__.Undefined('continue_')
        ag__.while_stmt(loop_test, loop_body, get_state_1, set_state_1, ('x', 'break_'), {})
        try:
            do_return = True
            retval_ = ag__.ld(x)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
