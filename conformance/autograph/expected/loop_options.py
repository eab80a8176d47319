def tf__loop_options(n):
    with ag__.FunctionScope('loop_options', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        s = ag__.converted_call(ag__.ld(tf).constant, ([0],), None, fscope)
        i = 0

        def get_state():
            return (s, i)

        def set_state(vars_):
            nonlocal s, i
            s, i = vars_

        def loop_body():
            nonlocal s, i
            s = ag__.converted_call(ag__.ld(tf).concat, ([ag__.ld(s), [ag__.ld(i)]], 0), None, fscope)
            i = ag__.ld(i)
            i += 1

        def loop_test():
            return ag__.ld(i) < ag__.ld(n)
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('s', 'i'), {'shape_invariants': [(ag__.ld(s), ag__.ld(tf).TensorShape([None]))]})
        try:
            do_return = True
            retval_ = ag__.ld(s)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
