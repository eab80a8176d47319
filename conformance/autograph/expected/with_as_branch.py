def tf__with_as_branch(x, path):
    with ag__.FunctionScope('with_as_branch', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (data,)

        def set_state(vars_):
            nonlocal data
            data, = vars_

        def if_body():
            nonlocal data
            with ag__.ld(open)(ag__.ld(path)) as fh:
                data = ag__.converted_call(ag__.ld(fh).read, (), None, fscope)

        def else_body():
            nonlocal data
            data = ''
        data = ag__.Undefined('data')
        fh = ag__.Undefined('fh')
        ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, ('data',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(data)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
