def tf__walrus_while_test(f):
    with ag__.FunctionScope('walrus_while_test', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        total = 0

        def get_state():
            return (total,)

        def set_state(vars_):
            nonlocal total
            total, = vars_

        def loop_body():
            nonlocal total
            total = ag__.ld(total)
            total += chunk

        def loop_test():
            return (chunk := ag__.converted_call(ag__.ld(f), (), None, fscope))
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('total',), {})
        try:
            do_return = True
            retval_ = ag__.ld(total)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
