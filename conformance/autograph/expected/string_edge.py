def tf__string_edge():
    with ag__.FunctionScope('string_edge', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        a = 'both \' and "'
        b = '\\\\server'
        c = 'line1\nline2\ttab\r'
        d = u'unicode'
        e = '\x7f\x80 \u200b'
        try:
            do_return = True
            retval_ = (ag__.ld(a), ag__.ld(b), ag__.ld(c), ag__.ld(d), ag__.ld(e))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
