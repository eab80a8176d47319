def tf__attr_target(self, n):
    with ag__.FunctionScope('attr_target', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (ag__.ldu(lambda: self.i, 'self.i'), ag__.ldu(lambda: self.total, 'self.total'))

        def set_state(vars_):
            self.i, self.total = vars_

        def loop_body(itr):
            ag__.ld(self).i = itr
            ag__.ld(self).total = ag__.ld(self).total + ag__.ld(self).i
        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope), None, loop_body, get_state, set_state, ('self.i', 'self.total'), {'iterate_names': 'self.i'})
        try:
            do_return = True
            retval_ = ag__.ld(self).total
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
