"""Records the fixture of graph_def_report_test: a small tf.function's concrete function under
TF 2.21, its GraphDef as TF serializes it, and TF's own facts about its graph (ops by type from
graph.get_operations(), inputs, captures, outputs with dtypes and shapes, library functions).
(The names of the variable's and inner function's graph nodes hold TF's trace counters: rerun it
only to change the fixture, and the test with it.)

    /root/.cache/tfscope/oracle-venv/bin/python tests/graph/record_tf_graph_def.py tests/graph/fixtures
"""
import collections
import json
import os
import sys

import tensorflow as tf


def facts(cf):
    g = cf.graph
    internal = {id(t) for t in g.internal_captures}
    ext = {id(i): e for e, i in g.captures}

    def kind(t):
        e = ext[id(t)]
        if e.dtype == tf.resource:
            return "resource"
        return "tensor" if hasattr(e, "numpy") else "outer"

    def row(t, name=None):
        return {"name": name or t.name, "dtype": t.dtype.name, "shape": str(t.shape)}

    return {
        "function_name": cf.name.decode() if isinstance(cf.name, bytes) else cf.name,
        "graph_name": g.name,
        "signature": cf.pretty_printed_signature(verbose=False),
        "num_nodes": len(g.get_operations()),
        "op_counts": dict(sorted(collections.Counter(op.type for op in g.get_operations()).items())),
        # the FuncGraph's tensors the reader is told about, and what TF says of them (inputs
        # and captures by placeholder, as tfscope's GraphReport names them)
        "input_tensors": [t.name for t in g.inputs],
        "capture_tensors": [[t.name, kind(t)] for t in g.inputs if id(t) in internal],
        "output_tensors": [t.name for t in g.outputs],
        "inputs": [row(t, t.op.name) for t in g.inputs],
        "captures": [dict(row(t, t.op.name), kind=kind(t)) for t in g.inputs if id(t) in internal],
        "outputs": [row(t) for t in g.outputs],
        "library": sorted(f.signature.name for f in g.as_graph_def().library.function),
        "tensorflow": tf.__version__,
    }


def main(out):
    v = tf.Variable([1.0, 2.0], name="v")
    big = tf.constant([float(i) for i in range(200)])  # over the Const threshold: captured

    @tf.function
    def inner(a):
        return a * 2.0

    @tf.function
    def f(x, h, n):
        y = x + v + tf.cast(h, tf.float32)
        z = tf.math.bessel_i0e(y) + inner(y)
        return {"z": z, "s": tf.reduce_sum(big) * tf.cast(n, tf.float32)}

    cf = f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32),
                                 tf.TensorSpec([2], tf.float16), tf.constant(3))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "tf_graph_def.pb"), "wb") as fh:
        fh.write(cf.graph.as_graph_def(add_shapes=True).SerializeToString())
    with open(os.path.join(out, "tf_graph_def.json"), "w") as fh:
        json.dump(facts(cf), fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
