def tf__global_state(x):
    with ag__.FunctionScope('global_state', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        global COUNTER

        def get_state():
            return (COUNTER,)

        def set_state(vars_):
            global COUNTER
            COUNTER, = vars_

        def if_body():
            global COUNTER
            COUNTER = ag__.ld(COUNTER) + 1

        def else_body():
            global COUNTER
            pass
        ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, ('COUNTER',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(COUNTER)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
