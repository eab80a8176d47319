def tf__call(self, x):
    with ag__.FunctionScope('call', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state_1():
            return (x,)

        def set_state_1(vars_):
            nonlocal x
            x, = vars_

        def loop_body(itr):
            nonlocal x
            i = itr

            def get_state():
                return (x,)

            def set_state(vars_):
                nonlocal x
                x, = vars_

            def if_body():
                nonlocal x
                x = ag__.ld(x) * ag__.ld(self).w

            def else_body():
                nonlocal x
                pass
            ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, ('x',), 1)
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (3,), None, fscope), None, loop_body, get_state_1, set_state_1, ('x',), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(x)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
