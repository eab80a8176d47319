def tf__zip_target(a, b):
    with ag__.FunctionScope('zip_target', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        s = 0

        def get_state():
            return (s,)

        def set_state(vars_):
            nonlocal s
            s, = vars_

        def loop_body(itr):
            nonlocal s
            x, (y, z) = itr
            s = ag__.ld(s)
            s += x * y - z
        x = ag__.Undefined('x')
        y = ag__.Undefined('y')
        z = ag__.Undefined('z')
        ag__.for_stmt(ag__.converted_call(ag__.ld(zip), (ag__.ld(a), ag__.ld(b)), None, fscope), None, loop_body, get_state, set_state, ('s',), {'iterate_names': '(x, (y, z))'})
        try:
            do_return = True
            retval_ = ag__.ld(s)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
