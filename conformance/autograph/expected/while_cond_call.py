def tf__while_cond_call(x, y):
    with ag__.FunctionScope('while_cond_call', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (x,)

        def set_state(vars_):
            nonlocal x
            x, = vars_

        def loop_body():
            nonlocal x
            x = ag__.converted_call(ag__.ld(tf).add, (ag__.ld(x), 1), None, fscope)

        def loop_test():
            return ag__.and_(lambda: ag__.converted_call(ag__.ld(tf).less, (ag__.ld(x), ag__.ld(y)), None, fscope), lambda: ag__.ld(x) > 0)
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('x',), {})
        try:
            do_return = True
            retval_ = ag__.ld(x)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
