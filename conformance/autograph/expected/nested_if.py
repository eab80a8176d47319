def tf__nested_if(x, y):
    with ag__.FunctionScope('nested_if', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state_1():
            return (z,)

        def set_state_1(vars_):
            nonlocal z
            z, = vars_

        def if_body_1():
            nonlocal z

            def get_state():
                return (z,)

            def set_state(vars_):
                nonlocal z
                z, = vars_

            def if_body():
                nonlocal z
                z = ag__.ld(x) + ag__.ld(y)

            def else_body():
                nonlocal z
                z = ag__.ld(x) - ag__.ld(y)
            z = ag__.Undefined('z')
            ag__.if_stmt(ag__.ld(y) > 0, if_body, else_body, get_state, set_state, ('z',), 1)

        def else_body_1():
            nonlocal z
            z = 0
        z = ag__.Undefined('z')
        ag__.if_stmt(ag__.ld(x) > 0, if_body_1, else_body_1, get_state_1, set_state_1, ('z',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(z)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
