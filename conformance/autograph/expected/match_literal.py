def tf__match_literal(x):
    with ag__.FunctionScope('match_literal', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        match 3:
            case 1 | 2:
                y = ag__.ld(x) + 1
            case [1, *_] | [2, 3]:
                y = ag__.ld(x) * 2
            case {'k': 1, **rest}:
                y = ag__.ld(x) - 1
            case -1 | 1.5 | 2 + 3j | 's' | None:
                y = 0
            case _:
                y = ag__.ld(x)
        try:
            do_return = True
            retval_ = ag__.ld(y)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
