def tf__branch_side_effect(x):
    with ag__.FunctionScope('branch_side_effect', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:

        def get_state():
            return ()

        def set_state(block_vars):
            pass

        def if_body():
            t = ag__.ld(x) * 2
            ag__.converted_call(ag__.ld(tf).print, (ag__.ld(t),), None, fscope)

        def else_body():
            pass
        t = ag__.Undefined('t')
        ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, (), 0)
