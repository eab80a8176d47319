def tf__for_list(x):
    with ag__.FunctionScope('for_list', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (x,)

        def set_state(vars_):
            nonlocal x
            x, = vars_

        def loop_body(itr):
            nonlocal x
            v = itr
            x = ag__.ld(x) + ag__.ld(v)
        v = ag__.Undefined('v')
        ag__.for_stmt([1, 2, 3], None, loop_body, get_state, set_state, ('x',), {'iterate_names': 'v'})
        try:
            do_return = True
            retval_ = ag__.ld(x)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
