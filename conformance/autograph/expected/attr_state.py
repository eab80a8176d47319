def tf__attr_state(self, n):
    with ag__.FunctionScope('attr_state', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (ag__.ldu(lambda: self.x, 'self.x'),)

        def set_state(vars_):
            self.x, = vars_

        def loop_body(itr):
            i = itr
            ag__.ld(self).x = ag__.ld(self).x + ag__.ld(i)
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (ag__.ld(n),), None, fscope), None, loop_body, get_state, set_state, ('self.x',), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.ld(self).x
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
