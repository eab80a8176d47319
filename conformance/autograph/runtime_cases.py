"""Runtime conformance cases: corpus functions (and a few runtime-only ones in runtime_extra.py)
run through tf.function under TF 2.21 and under tfscope; run_runtime.sh compares the outputs,
trace counts and op counts (graph and library) of the two.

CASES maps a function to the calls made on one tf.function of it. Each call is a Python
expression evaluated with `tf` (the backend) and `np` in scope; it gives the argument tuple.
A name "extra.NAME" refers to runtime_extra.py, anything else to corpus/NAME.py.

Op counts must be equal: there is no allowance list (the last one, for `for` over a tensor, went
when tfscope built TF's TensorList ops for it).
"""

CASES = {
    # if / elif / else on tensors
    "if_else": ["(tf.constant(3),)", "(tf.constant(-4),)"],
    "if_no_else": ["(tf.constant(-2),)", "(tf.constant(5),)"],
    "if_pass": ["(tf.constant(2),)", "(tf.constant(-2),)"],
    "elif_chain": ["(tf.constant(2),)", "(tf.constant(-2),)", "(tf.constant(0),)"],
    "nested_if": ["(tf.constant(2), tf.constant(1))", "(tf.constant(2), tf.constant(-1))",
                  "(tf.constant(-1), tf.constant(3))"],
    "input_only": ["(tf.constant(2), tf.constant(1))", "(tf.constant(2), tf.constant(0))"],
    "if_modifies_param_unused": ["(tf.constant(2), tf.constant(1))"],
    "multiple_targets_if": ["(tf.constant(2),)"],
    "early_return": ["(tf.constant(3),)", "(tf.constant(-3),)"],
    "elif_returns": ["(tf.constant(11),)", "(tf.constant(7),)", "(tf.constant(1),)",
                     "(tf.constant(-1),)"],
    "return_else_only": ["(tf.constant(3),)", "(tf.constant(-3),)"],
    "if_exp": ["(tf.constant(3),)", "(tf.constant(-3),)"],
    "nested_ifexp": ["(tf.constant(7),)", "(tf.constant(2),)", "(tf.constant(-7),)",
                     "(tf.constant(-1),)"],
    "ternary_return": ["(tf.constant(3), tf.constant(1))", "(tf.constant(1), tf.constant(3))"],
    "ifexp_in_test": ["(tf.constant(3), True)", "(tf.constant(3), False)"],
    "numbered_suffix_01": ["(tf.constant(3),)"],
    "decorated": ["(tf.constant(3),)", "(tf.constant(-3),)"],
    "no_return": ["(tf.constant(3),)"],
    "branch_side_effect": ["(tf.constant(3),)"],
    "bare_return": ["(tf.constant(3),)"],
    # Python conditions stay Python
    "global_state": ["(1,)", "(-1,)"],
    "deep_elif": ["(1,)", "(3,)", "(9,)"],
    # variable defined in one branch only
    "if_one_branch": ["(tf.constant(3),)"],
    # loops over tf.range
    "for_tf_range": ["(tf.constant(5),)", "(tf.constant(0),)", "(tf.constant(7),)"],
    "if_in_for": ["(tf.constant(6),)"],
    "sum_even": ["(tf.constant(10),)", "(tf.constant(0),)"],  # the demo's function
    "local_to_body": ["(tf.constant(4),)"],
    "for_break": ["(tf.constant(10),)"],
    "break_last": ["(tf.constant(10),)"],
    "break_and_continue": ["(tf.constant(20),)"],
    "nested_loops": ["(tf.constant(3), tf.constant(4))"],
    "two_loops": ["(tf.constant(5),)", "(tf.constant(20),)"],
    "loop_options_for": ["(tf.constant(5),)"],
    "for_undefined_state": ["(tf.constant(3),)"],
    # while loops on tensors
    "while_simple": ["(tf.constant(1),)", "(tf.constant(20),)"],
    "while_break": ["(tf.constant(1),)"],
    "while_continue": ["(tf.constant(10),)"],
    "continue_deep": ["(tf.constant(9),)"],
    "while_tensor": ["(tf.constant([3, 1]),)"],
    "subscript_state": ["({'k': tf.constant(0)}, tf.constant(3))"],
    "while_tensor_cond_two": ["(tf.constant(5), tf.constant(6))"],
    "while_true_break": ["(tf.constant(1),)"],
    "param_modified_loop": ["(tf.constant(1.5), tf.constant(3))"],
    "nested_while_break": ["(tf.constant(4),)"],
    # Python loops stay Python (unrolled)
    "for_py_range": ["(4,)"],
    "for_list": ["(tf.constant(1),)"],
    "while_in_for": ["(4,)"],
    "inner_break": ["(3, 4)"],
    "tuple_return_loop": ["(6,)"],
    "for_continue": ["([1, 2, 3, 4],)"],
    "global_read_loop": ["(3,)"],
    "loop_var_reassigned": ["(4,)"],
    "continue_in_else": ["(6,)"],
    # return inside TF loops, loop variables first defined in the loop
    "loop_var_after": ["(tf.constant(3),)"],
    "return_in_for": ["(tf.constant(6),)", "(tf.constant(2),)"],
    "return_in_while": ["(tf.constant(3),)", "(tf.constant(200),)"],
    "while_true_return": ["(tf.constant(1),)"],
    "return_nested_if": ["(tf.constant(1), tf.constant(1))", "(tf.constant(1), tf.constant(-1))"],
    "two_returns_loop": ["(tf.constant(4),)", "(tf.constant(9),)", "(tf.constant(2),)"],
    "return_in_both_loops": ["(5,)"],
    # state other than plain names; targets; calls
    "global_loop": ["(tf.constant(4),)"],
    "tuple_target": ["([1, 2, 3],)"],
    "zip_target": ["([1, 2], [(3, 4), (5, 6)])"],
    "dict_items": ["({'a': 1, 'b': 2},)"],
    "del_in_branch": ["(tf.constant(2),)", "(tf.constant(-2),)"],
    "def_in_branch": ["(tf.constant(2), tf.constant(1))"],
    "star_args": ["(tf.constant(1), 2, 3)"],
    "kwargs_call": ["(tf.constant([[1, 2], [3, 4]]),)"],
    "extra.method_attr_state": ["(tf.constant(4),)"],
    "extra.dict_state_loop": ["(tf.constant(4),)"],
    "extra.super_method": ["(tf.constant(4),)", "(tf.constant(-4),)"],
    "extra.lambda_ifexp": ["(tf.constant(3),)", "(tf.constant(-3),)"],
    "extra.lambda_helper": ["(tf.constant(3),)", "(tf.constant(-3),)"],
    "extra.variable_loop": ["(tf.constant(3),)", "(tf.constant(2),)"],
    "extra.variable_branch": ["(tf.constant(1),)", "(tf.constant(-1),)"],
    # for over a tensor that is not a range
    "for_over_tensor": ["(tf.constant([[1., 2., 3.], [4., 5., 6.]]),)"],
    # match statements: converted when no name appears outside a case body; otherwise TF's
    # converter fails and the function runs unconverted (its tensor `if` then raises)
    "match_literal": ["(tf.constant(3),)"],
    "match_subject_name": ["(tf.constant(3), 1)", "(tf.constant(3), [2, 5])"],
    # set_loop_options(shape_invariants=...)
    "extra.loop_shape_invariant": ["(tf.constant(3),)", "(tf.constant(0),)"],
    "extra.loop_shape_invariant_violated": ["(tf.constant(3),)"],
    "extra.while_shape_invariant": ["(tf.constant(5),)"],
    "extra.for_over_vector": ["(tf.constant([1, 2, 3]),)", "(tf.constant([4, 5, 6, 7]),)"],
    "extra.for_over_tensor_break": ["(tf.ones([4, 3]) * 30.0,)", "(tf.ones([4, 3]),)"],
    "extra.for_over_tensor_nested": ["(tf.constant([[1, 2], [3, 4], [5, 6]]),)"],
    "extra.for_over_empty_tensor": ["(tf.zeros([0, 3]),)"],
    "extra.for_over_scalar_tensor": ["(tf.constant(3),)"],
    "extra.tensor_index_in_range_loop": ["(tf.constant([3, 1, 4, 1, 5]), tf.constant(4))"],
    "extra.slices_with_tensor_bounds": ["(tf.constant([[1, 2, 3], [4, 5, 6]]), tf.constant(1))"],
    # runtime-only cases (runtime_extra.py): TF's loop and branch checks
    "extra.loop_dtype_change": ["(tf.constant(3),)"],
    "extra.loop_shape_change": ["(tf.constant(3),)"],
    "extra.branch_dtype_mismatch": ["(tf.constant(3),)"],
    "extra.python_to_tensor_while": ["(tf.constant(3),)"],
    "extra.tensor_break_in_py_for": ["(tf.constant(3),)"],
    "extra.cond_not_bool": ["(tf.constant(3),)"],
    "extra.helper_call": ["(tf.constant(3),)", "(tf.constant(-3),)"],
    "extra.range_builtin_tensor": ["(tf.constant(4),)"],
    "extra.len_of_tensor": ["(tf.constant([1, 2, 3]),)"],
    "extra.stateful_branch": ["(tf.constant(3),)", "(tf.constant(-3),)"],
    "extra.float_loop": ["(tf.constant(0.5),)"],
    "extra.retrace_on_python_flag": ["(tf.constant(2), True)", "(tf.constant(2), False)",
                                     "(tf.constant(5), True)"],
}
