def tf__subscript_target(buf, n):
    with ag__.FunctionScope('subscript_target', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (ag__.ldu(lambda: buf[0], 'buf[0]'),)

        def set_state(vars_):
            buf[0], = vars_

        def loop_body(itr):
            ag__.ld(buf)[0] = itr
            ag__.converted_call(ag__.ld(tf).print, (ag__.ld(buf)[0],), None, fscope)
        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope), None, loop_body, get_state, set_state, ('buf[0]',), {'iterate_names': 'buf[0]'})
        try:
            do_return = True
            retval_ = ag__.ld(buf)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
