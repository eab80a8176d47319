def tf__break_last(n):
    with ag__.FunctionScope('break_last', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        s = 0
        break_ = False

        def get_state_1():
            return (s, break_)

        def set_state_1(vars_):
            nonlocal break_, s
            s, break_ = vars_

        def loop_body(itr):
            nonlocal break_, s
            i = itr
            continue_ = False
            (break_,)
            s = ag__.ld(s)
            s += i

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
            ag__.if_stmt(ag__.ld(s) > 10, if_body, else_body, get_state, set_state, ('break_',), 1)

        def extra_test():
            nonlocal break_, s
            return ag__.not_(break_)
        continue_ = ag__.Undefined('continue_')
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (ag__.ld(n),), None, fscope), extra_test, loop_body, get_state_1, set_state_1, ('s', 'break_'), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(s)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
