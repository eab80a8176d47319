def tf__empty_collections(n):
    with ag__.FunctionScope('empty_collections', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        a = []
        b = {}

        def get_state():
            return (ag__.ldu(lambda: b[n], 'b[n]'), n)

        def set_state(vars_):
            nonlocal n
            b[n], n = vars_

        def loop_body():
            nonlocal n
            ag__.converted_call(ag__.ld(a).append, (ag__.ld(n),), None, fscope)
            ag__.ld(b)[ag__.ld(n)] = ag__.ld(a)[-1]
            n = ag__.ld(n)
            n -= 1

        def loop_test():
            return ag__.ld(n) > 0
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('b[n]', 'n'), {})
        try:
            do_return = True
            retval_ = (ag__.ld(a), ag__.ld(b))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
