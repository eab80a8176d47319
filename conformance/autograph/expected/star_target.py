def tf__star_target(rows):
    with ag__.FunctionScope('star_target', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        heads = []

        def get_state():
            return (heads,)

        def set_state(vars_):
            nonlocal heads
            heads, = vars_

        def loop_body(itr):
            nonlocal heads
            first, *rest = itr
            heads = ag__.ld(heads) + [ag__.ld(first)]
        first = ag__.Undefined('first')
        rest = ag__.Undefined('rest')
        ag__.for_stmt(ag__.ld(rows), None, loop_body, get_state, set_state, ('heads',), {'iterate_names': '(first, *rest)'})
        try:
            do_return = True
            retval_ = ag__.ld(heads)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
