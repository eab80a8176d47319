def tf__init_loop(n):
    with ag__.FunctionScope('init_loop', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        class C:

            @ag__.autograph_artifact
            def __init__(self):
                with ag__.FunctionScope('__init__', 'fscope_1', ag__.STD) as fscope_1:
                    ag__.ld(self).v = 0

                    def get_state():
                        return (ag__.ldu(lambda: self.v, 'self.v'),)

                    def set_state(vars_):
                        self.v, = vars_

                    def loop_body(itr):
                        i = itr
                        ag__.ld(self).v = ag__.ld(self).v + ag__.ld(i)
                    i = ag__.Undefined('i')
                    ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(n),), None, fscope_1), None, loop_body, get_state, set_state, ('self.v',), {'iterate_names': 'i'})
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(C), (), None, fscope).v
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
