def tf__star_args(x, *args, **kw):
    with ag__.FunctionScope('star_args', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(g), (1, ag__.ld(x)) + tuple(ag__.ld(args)), dict(key=ag__.ld(x), **ag__.ld(kw)), fscope)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
