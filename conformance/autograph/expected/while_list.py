def tf__while_list(xs):
    with ag__.FunctionScope('while_list', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        out = 0

        def get_state():
            return (out,)

        def set_state(vars_):
            nonlocal out
            out, = vars_

        def loop_body():
            nonlocal out
            out = ag__.ld(out)
            out += ag__.converted_call(xs.pop, (), None, fscope)

        def loop_test():
            return ag__.ld(xs)
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('out',), {})
        try:
            do_return = True
            retval_ = ag__.ld(out)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
