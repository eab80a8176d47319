def tf__varargs_loop(*args, **kwargs):
    with ag__.FunctionScope('varargs_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        total = 0

        def get_state():
            return (total,)

        def set_state(vars_):
            nonlocal total
            total, = vars_

        def loop_body(itr):
            nonlocal total
            a = itr
            total = ag__.ld(total) + ag__.ld(a)
        a = ag__.Undefined('a')
        ag__.for_stmt(ag__.ld(args), None, loop_body, get_state, set_state, ('total',), {'iterate_names': 'a'})

        def get_state_1():
            return (total,)

        def set_state_1(vars_):
            nonlocal total
            total, = vars_

        def loop_body_1(itr_1):
            nonlocal total
            k = itr_1
            total = ag__.ld(total) + ag__.ld(kwargs)[ag__.ld(k)]
        k = ag__.Undefined('k')
        ag__.for_stmt(ag__.ld(kwargs), None, loop_body_1, get_state_1, set_state_1, ('total',), {'iterate_names': 'k'})
        try:
            do_return = True
            retval_ = ag__.ld(total)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
