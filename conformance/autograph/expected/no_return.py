def tf__no_return(x):
    with ag__.FunctionScope('no_return', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:

        def get_state():
            return ()

        def set_state(block_vars):
            pass

        def if_body():
            ag__.converted_call(ag__.ld(tf).print, (ag__.ld(x),), None, fscope)

        def else_body():
            ag__.converted_call(ag__.ld(tf).print, (-ag__.ld(x),), None, fscope)
        ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, (), 0)
