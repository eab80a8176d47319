def tf__subscript_state(d, n):
    with ag__.FunctionScope('subscript_state', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        i = 0

        def get_state():
            return (ag__.ldu(lambda: d['k'], "d['k']"), i)

        def set_state(vars_):
            nonlocal i
            d['k'], i = vars_

        def loop_body():
            nonlocal i
            ag__.ld(d)['k'] = ag__.ld(d)['k'] + 1
            i = ag__.ld(i)
            i += 1

        def loop_test():
            return ag__.ld(i) < ag__.ld(n)
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ("d['k']", 'i'), {})
        try:
            do_return = True
            retval_ = ag__.ld(d)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
