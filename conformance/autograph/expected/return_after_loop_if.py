def tf__return_after_loop_if(xs):
    with ag__.FunctionScope('return_after_loop_if', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        found = None
        break_ = False

        def get_state_1():
            return (found, break_)

        def set_state_1(vars_):
            nonlocal break_, found
            found, break_ = vars_

        def loop_body(itr):
            nonlocal break_, found
            x = itr
            continue_ = False
            (break_,)

            def get_state():
                return (break_, found)

            def set_state(vars_):
                nonlocal break_, found
                break_, found = vars_

            def if_body():
                nonlocal break_, found
                found = ag__.ld(x)
                break_ = True
                continue_ = True

            def else_body():
                nonlocal break_, found
                pass
            ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, ('break_', 'found'), 2)

        def extra_test():
            nonlocal break_, found
            return ag__.not_(break_)
        x = ag__.Undefined('x')
        continue_ = ag__.Undefined('continue_')
        ag__.for_stmt(ag__.ld(xs), extra_test, loop_body, get_state_1, set_state_1, ('found', 'break_'), {'iterate_names': 'x'})

        def get_state_2():
            return (do_return, retval_)

        def set_state_2(vars_):
            nonlocal do_return, retval_
            do_return, retval_ = vars_

        def if_body_1():
            nonlocal do_return, retval_
            try:
                do_return = True
                retval_ = 0
            except:
                do_return = False
                raise

        def else_body_1():
            nonlocal do_return, retval_
            try:
                do_return = True
                retval_ = ag__.ld(found)
            except:
                do_return = False
                raise
        ag__.if_stmt(ag__.ld(found) is None, if_body_1, else_body_1, get_state_2, set_state_2, ('do_return', 'retval_'), 2)
        return fscope.ret(retval_, do_return)
