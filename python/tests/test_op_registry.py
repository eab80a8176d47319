"""The Python op surface against the C++ op registry and TF 2.21's wrappers.

Every op the Python layer calls goes through `_core.apply_op` (`_op` in __init__.py). Checked
here without TF: each such call in python/tfscope names a registered op, passes as many inputs
as its OpDef has, and only attrs that TF's wrapper of that op takes (its tf.raw_ops parameters,
recorded from TF 2.21 by scripts/record_tf_raw_ops.py into tf_raw_ops.json) or that its OpDef
names; and tf.raw_ops takes every registered op's inputs under TF's Python names
(`tf.raw_ops.Sum(input=, axis=)`, not the OpDef's reduction_indices)."""
import ast
import inspect
import json
import os

import pytest

import tfscope as tf
from tfscope import _core

_HERE = os.path.dirname(__file__)
_PACKAGE = os.path.dirname(tf.__file__)
with open(os.path.join(_HERE, "tf_raw_ops.json")) as _f:
    TF_RAW_OPS = json.load(_f)

# Registered ops TF 2.21 has no raw op for (grappler's fused kernels).
_NOT_IN_TF = {"_MklSwish"}


def _op_calls():
    """(file:line, op, number of inputs or None, attr names or None) of every literal op call."""
    calls = []
    for root, _, files in os.walk(_PACKAGE):
        for fname in sorted(files):
            if not fname.endswith(".py"):
                continue
            path = os.path.join(root, fname)
            with open(path) as f:
                tree = ast.parse(f.read(), path)
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                fn = node.func
                is_op = ((isinstance(fn, ast.Attribute) and fn.attr == "apply_op"
                          and isinstance(fn.value, ast.Name) and fn.value.id == "_core")
                         or (isinstance(fn, ast.Name) and fn.id == "_op")
                         or (isinstance(fn, ast.Attribute) and fn.attr == "_op"))
                first = node.args[0]
                if not is_op or not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                    continue
                n_in = len(node.args[1].elts) if len(node.args) > 1 and isinstance(
                    node.args[1], (ast.List, ast.Tuple)) else None
                attrs = None
                if len(node.args) > 2 and isinstance(node.args[2], ast.Dict):
                    attrs = [k.value for k in node.args[2].keys if isinstance(k, ast.Constant)]
                where = "%s:%d" % (os.path.relpath(path, _PACKAGE), node.lineno)
                calls.append((where, first.value, n_in, attrs))
    return calls


def test_the_python_layer_calls_ops_through_the_one_path():
    # Enough call sites found that the walk is looking at the package's wrappers.
    ops = {op for _, op, _, _ in _op_calls()}
    assert {"TensorListReserve", "StringJoin", "CheckNumerics", "WriteSummary", "Relu"} <= ops


def test_every_op_the_python_layer_calls_is_registered_with_its_arguments():
    registered = set(_core.registered_ops())
    problems = []
    for where, op, n_in, attrs in _op_calls():
        if op not in registered:
            problems.append(f"{where}: {op} is not a registered op")
            continue
        inputs, _ = _core.op_arg_names(op)
        if n_in is not None and n_in != len(inputs):
            problems.append(f"{where}: {op} called with {n_in} inputs, its OpDef has "
                            f"{len(inputs)} ({', '.join(inputs)})")
        if attrs is None or op not in TF_RAW_OPS:
            continue
        known = set(TF_RAW_OPS[op]["params"]) | set(_core.op_def_attrs(op))
        for a in attrs:
            if a not in known:
                problems.append(f"{where}: {op} given attr {a!r}, which TF's wrapper does not "
                                f"take ({', '.join(TF_RAW_OPS[op]['params'])})")
    assert not problems, "\n".join(problems)


def test_the_record_covers_the_registry():
    # Rerun scripts/record_tf_raw_ops.py when an op is registered.
    missing = sorted(set(_core.registered_ops()) - set(TF_RAW_OPS) - _NOT_IN_TF)
    assert not missing, missing


@pytest.mark.parametrize("op", sorted(TF_RAW_OPS))
def test_raw_ops_take_tfs_input_names(op):
    if op not in set(_core.registered_ops()):
        pytest.skip("no longer registered")
    rec = TF_RAW_OPS[op]
    inputs, _ = _core.op_arg_names(op)
    assert rec["inputs"] == len(inputs), (op, inputs)
    fn = getattr(tf.raw_ops, op)
    params = list(inspect.signature(fn).parameters)
    assert params[:rec["inputs"]] == rec["params"][:rec["inputs"]]
    assert fn.__name__ == rec["function"]  # what TF's errors call it
