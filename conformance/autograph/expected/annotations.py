def tf__annotations(x: tf.Tensor, n: int=None) -> tf.Tensor:
    with ag__.FunctionScope('annotations', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        y: ag__.ld(int) = ag__.ld(n)
        try:
            do_return = True
            retval_ = ag__.ld(x) * ag__.ld(y)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
