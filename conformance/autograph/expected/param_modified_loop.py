def tf__param_modified_loop(x, n):
    with ag__.FunctionScope('param_modified_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        i = 0

        def get_state():
            return (i, x)

        def set_state(vars_):
            nonlocal x, i
            i, x = vars_

        def loop_body():
            nonlocal x, i
            x = ag__.ld(x) * 2
            i = ag__.ld(i) + 1

        def loop_test():
            return ag__.ld(i) < ag__.ld(n)
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('i', 'x'), {})
        try:
            do_return = True
            retval_ = (ag__.ld(x), ag__.ld(i))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
