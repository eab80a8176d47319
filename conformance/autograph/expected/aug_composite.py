def tf__aug_composite(self, d, n):
    with ag__.FunctionScope('aug_composite', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (ag__.ldu(lambda: d['count'], "d['count']"), ag__.ldu(lambda: self.total, 'self.total'))

        def set_state(vars_):
            d['count'], self.total = vars_

        def loop_body(itr):
            i = itr
            ag__.ld(self).total += ag__.ld(i)
            ag__.ld(d)['count'] += 1
        i = ag__.Undefined('i')
        ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (ag__.ld(n),), None, fscope), None, loop_body, get_state, set_state, ("d['count']", 'self.total'), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = (ag__.ld(self).total, ag__.ld(d))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
