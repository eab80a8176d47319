def tf__with_in_loop(n):
    with ag__.FunctionScope('with_in_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        i = 0
        break_ = False

        def get_state_1():
            return (i, break_)

        def set_state_1(vars_):
            nonlocal break_, i
            i, break_ = vars_

        def loop_body():
            nonlocal break_, i
            continue_ = False
            with ag__.ld(tf).name_scope('step'):
                i = ag__.ld(i) + 1

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
                ag__.if_stmt(ag__.ld(i) > 3, if_body, else_body, get_state, set_state, ('break_',), 1)

        def loop_test():
            return ag__.and_(lambda: ag__.not_(break_), lambda: ag__.ld(i) < ag__.ld(n))
        continue_ = ag__.Undefined('continue_')
        ag__.while_stmt(loop_test, loop_body, get_state_1, set_state_1, ('i', 'break_'), {})
        try:
            do_return = True
            retval_ = ag__.ld(i)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
