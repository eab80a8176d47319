def tf__global_nested(x):
    with ag__.FunctionScope('global_nested', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        @ag__.autograph_artifact
        def inner():
            with ag__.FunctionScope('inner', 'fscope_1', ag__.STD) as fscope_1:
                global COUNT
                COUNT = ag__.ld(x)

                def get_state():
                    return (COUNT,)

                def set_state(vars_):
                    global COUNT
                    COUNT, = vars_

                def loop_body():
                    global COUNT
                    COUNT = ag__.ld(COUNT) - 1

                def loop_test():
                    return ag__.ld(COUNT) > 0
                ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('COUNT',), {})
        ag__.converted_call(ag__.ld(inner), (), None, fscope)
        try:
            do_return = True
            retval_ = ag__.ld(x)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
