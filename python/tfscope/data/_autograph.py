"""AutoGraph's loop over a dataset (`for x in ds:` in a tf.function), built as TF builds it
(autograph/operators/control_flow.py, _tf_dataset_for_stmt): the loop body becomes the function
of a ScanDataset whose state is the loop variables and whose elements are (loop variables, the
extra test); a `break` or `return` in the body adds a TakeWhileDataset on that test; a
ReduceDataset keeps the last loop variables, which the loop leaves as its result. A loop over an
iterator (_tf_iterator_for_stmt) is a while loop: each iteration takes get_next_as_optional and
runs the body in a cond on its has_value, which is also the loop's test."""
from .. import _core


def dataset_for_stmt(ds, extra_test, body, get_state, set_state, symbol_names, opts):
    from ..autograph import operators as ops

    init_vars = get_state()
    ops.verify_loop_init_vars(init_vars, symbol_names)
    if not init_vars:
        # Dataset.reduce takes no empty state: a dummy one that stays unused, as TF.
        init_vars = (_core.convert_to_tensor(0, None),)
        symbol_names = ("<internal dummy>",)

        def set_state(unused_dummy):  # noqa: F811
            pass

        def get_state():  # noqa: F811
            return (_core.convert_to_tensor(0, None),)

    def scan_body(scan_state, scan_inputs):
        loop_vars, iterate = scan_state, scan_inputs
        set_state(loop_vars)

        def main_path():
            body(iterate)
            new_loop_vars = get_state()
            ops.verify_tf_loop_vars(init_vars, loop_vars, new_loop_vars, symbol_names, opts,
                                    check_shapes=False)
            return new_loop_vars

        if extra_test is not None:
            extra_cond = extra_test()
            new_loop_vars = ops._tf_cond(extra_cond, main_path, lambda: loop_vars)
        else:
            extra_cond = (_core.convert_to_tensor(True, None),)  # unused, as TF's
            new_loop_vars = main_path()
        return new_loop_vars, (new_loop_vars, extra_cond)

    def take_while_predicate(unused_loop_vars, extra_cond):
        return extra_cond

    def reduce_body(unused_reduce_state, scan_outputs):
        output_loop_vars, unused_extra_cond = scan_outputs
        return output_loop_vars

    ds = ds._scan(init_vars, scan_body, use_default_device=False)
    if extra_test is not None:
        ds = ds.take_while(take_while_predicate)
    final_loop_vars = ds.reduce(init_vars, reduce_body)
    set_state(final_loop_vars)


def iterator_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    from ..autograph import operators as ops

    symbol_names = ("<internal has_next>",) + tuple(symbol_names)
    has_next = True

    def aug_get_state():
        return (has_next,) + tuple(get_state())

    def aug_set_state(aug_loop_vars):
        nonlocal has_next
        has_next, *loop_vars = aug_loop_vars
        set_state(loop_vars)

    init_vars = aug_get_state()
    ops.verify_loop_init_vars(init_vars, symbol_names)

    def aug_body():
        nonlocal has_next
        opt_iterate = iter_.get_next_as_optional()
        has_next = opt_iterate.has_value()
        loop_vars = aug_get_state()

        def main_path():
            body(opt_iterate.get_value())
            new_loop_vars = aug_get_state()
            ops.verify_tf_loop_vars(init_vars, loop_vars, new_loop_vars, symbol_names, opts)
            return new_loop_vars

        def noop_path():
            return loop_vars

        aug_set_state(ops._tf_cond(has_next, main_path, noop_path))

    def aug_test():
        main_test = has_next
        if extra_test is not None:
            return ops._tf_cond(main_test, extra_test, lambda: False)
        return main_test

    ops._tf_while_stmt(aug_test, aug_body, aug_get_state, aug_set_state, symbol_names, opts)
