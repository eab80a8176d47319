def tf__print_in_loop(n):
    with ag__.FunctionScope('print_in_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:

        def get_state():
            return ()

        def set_state(block_vars):
            pass

        def loop_body(itr):
            i = itr
            ag__.ld(print)('step', ag__.ld(i))
            ag__.converted_call(ag__.ld(tf).print, (ag__.ld(i),), None, fscope)
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (ag__.ld(n),), None, fscope), None, loop_body, get_state, set_state, (), {'iterate_names': 'i'})
