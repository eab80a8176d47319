def tf__bool_tests(x, y):
    with ag__.FunctionScope('bool_tests', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (x,)

        def set_state(vars_):
            nonlocal x
            x, = vars_

        def if_body():
            nonlocal x
            x = 1

        def else_body():
            nonlocal x
            pass
        ag__.if_stmt(ag__.not_(ag__.ld(x)), if_body, else_body, get_state, set_state, ('x',), 1)

        def get_state_1():
            return (y,)

        def set_state_1(vars_):
            nonlocal y
            y, = vars_

        def if_body_1():
            nonlocal y
            y = 2

        def else_body_1():
            nonlocal y
            pass
        ag__.if_stmt(ag__.and_(lambda: ag__.ld(x), lambda: ag__.ld(y)), if_body_1, else_body_1, get_state_1, set_state_1, ('y',), 1)

        def get_state_2():
            return (x,)

        def set_state_2(vars_):
            nonlocal x
            x, = vars_

        def if_body_2():
            nonlocal x
            x = 3

        def else_body_2():
            nonlocal x
            pass
        ag__.if_stmt(ag__.or_(lambda: ag__.ld(x), lambda: ag__.not_(ag__.ld(y))), if_body_2, else_body_2, get_state_2, set_state_2, ('x',), 1)
        try:
            do_return = True
            retval_ = (ag__.ld(x), ag__.ld(y))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
