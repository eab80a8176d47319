def tf__attr_chain(self, n):
    with ag__.FunctionScope('attr_chain', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (ag__.ldu(lambda: self.a.b, 'self.a.b'), n)

        def set_state(vars_):
            nonlocal n
            self.a.b, n = vars_

        def loop_body():
            nonlocal n
            ag__.ld(self).a.b = ag__.ld(self).a.b + ag__.ld(n)
            n = ag__.ld(n)
            n -= 1

        def loop_test():
            return ag__.ld(n) > 0
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('self.a.b', 'n'), {})
        try:
            do_return = True
            retval_ = ag__.ld(self).a.b
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
