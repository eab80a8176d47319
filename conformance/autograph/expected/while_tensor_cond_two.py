def tf__while_tensor_cond_two(x, y):
    with ag__.FunctionScope('while_tensor_cond_two', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (x, y)

        def set_state(vars_):
            nonlocal x, y
            x, y = vars_

        def loop_body():
            nonlocal x, y
            x = ag__.ld(x) - 1
            y = ag__.ld(y) - 2

        def loop_test():
            return ag__.and_(lambda: ag__.ld(x) > 0, lambda: ag__.ld(y) > 0)
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('x', 'y'), {})
        try:
            do_return = True
            retval_ = ag__.ld(x) + ag__.ld(y)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
