def tf__attr_in_branch(self, x):
    with ag__.FunctionScope('attr_in_branch', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (ag__.ldu(lambda: self.value, 'self.value'),)

        def set_state(vars_):
            self.value, = vars_

        def if_body():
            ag__.ld(self).value = ag__.ld(x)

        def else_body():
            ag__.ld(self).value = -ag__.ld(x)
        ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, ('self.value',), 1)
        try:
            do_return = True
            retval_ = ag__.ld(self).value
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
