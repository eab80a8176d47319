def tf__call_default(x, n=None):
    with ag__.FunctionScope('call_default', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        @ag__.autograph_artifact
        def inner(y, m=ag__.converted_call(ag__.ld(len), ('abc',), None, fscope)):
            with ag__.FunctionScope('inner', 'fscope_1', ag__.STD) as fscope_1:
                do_return_1 = False
                retval__1 = ag__.UndefinedReturnValue()
                try:
                    do_return_1 = True
                    retval__1 = ag__.ld(y) + ag__.ld(m)
                except:
                    do_return_1 = False
                    raise
                return fscope_1.ret(retval__1, do_return_1)

        def get_state():
            return (x,)

        def set_state(vars_):
            nonlocal x
            x, = vars_

        def if_body():
            nonlocal x
            x = ag__.ld(x) - 1

        def else_body():
            nonlocal x
            pass
        ag__.if_stmt(ag__.ld(x) > ag__.ld(n), if_body, else_body, get_state, set_state, ('x',), 1)
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(inner), (ag__.ld(x),), None, fscope) + ag__.ld(n)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
