def tf__deep_elif(x):
    with ag__.FunctionScope('deep_elif', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state_3():
            return (r,)

        def set_state_3(vars_):
            nonlocal r
            r, = vars_

        def if_body_3():
            nonlocal r
            r = 'one'

        def else_body_3():
            nonlocal r

            def get_state_2():
                return (r,)

            def set_state_2(vars_):
                nonlocal r
                r, = vars_

            def if_body_2():
                nonlocal r
                r = 'two'

            def else_body_2():
                nonlocal r

                def get_state_1():
                    return (r,)

                def set_state_1(vars_):
                    nonlocal r
                    r, = vars_

                def if_body_1():
                    nonlocal r
                    r = 'three'

                def else_body_1():
                    nonlocal r

                    def get_state():
                        return (r,)

                    def set_state(vars_):
                        nonlocal r
                        r, = vars_

                    def if_body():
                        nonlocal r
                        r = 'four'

                    def else_body():
                        nonlocal r
                        r = 'many'
                    r = ag__.Undefined('r')
                    ag__.if_stmt(ag__.ld(x) == 4, if_body, else_body, get_state, set_state, ('r',), 1)
                r = ag__.Undefined('r')
                ag__.if_stmt(ag__.ld(x) == 3, if_body_1, else_body_1, get_state_1, set_state_1, ('r',), 1)
            r = ag__.Undefined('r')
            ag__.if_stmt(ag__.ld(x) == 2, if_body_2, else_body_2, get_state_2, set_state_2, ('r',), 1)
        r = ag__.Undefined('r')
        ag__.if_stmt(ag__.ld(x) == 1, if_body_3, else_body_3, get_state_3, set_state_3, ('r',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(r)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
