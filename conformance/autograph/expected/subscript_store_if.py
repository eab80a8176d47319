def tf__subscript_store_if(x, v):
    with ag__.FunctionScope('subscript_store_if', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (ag__.ldu(lambda: x[0], 'x[0]'),)

        def set_state(vars_):
            x[0], = vars_

        def if_body():
            ag__.ld(x)[0] = ag__.ld(v)

        def else_body():
            pass
        ag__.if_stmt(ag__.ld(v) > 0, if_body, else_body, get_state, set_state, ('x[0]',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(x)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
