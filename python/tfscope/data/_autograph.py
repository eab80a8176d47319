"""AutoGraph's loop over a dataset (`for x in ds:` in a tf.function), built as TF builds it
(autograph/operators/control_flow.py, _tf_dataset_for_stmt): the loop body becomes the function
of a ScanDataset whose state is the loop variables and whose elements are (loop variables, the
extra test); a `break` or `return` in the body adds a TakeWhileDataset on that test; a
ReduceDataset keeps the last loop variables, which the loop leaves as its result."""
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
