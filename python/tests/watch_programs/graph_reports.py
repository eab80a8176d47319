# Watched under real TF by test_watch_graph_report.py: functions whose concrete functions watch
# reports with tfscope's GraphDef reader. At exit the program writes TF's own facts about every
# concrete function still alive (ops by type from graph.get_operations(), inputs, captures and
# outputs with dtype and shape (inputs and captures by placeholder), library functions), keyed by the concrete function's name.
import collections
import gc
import json
import sys

import numpy as np
import tensorflow as tf
import keras
from tensorflow.python.eager.polymorphic_function import polymorphic_function as pf

v = tf.Variable([1.0, 2.0], name="v")
big = tf.constant([float(i) for i in range(200)])  # over TF's Const threshold: captured


@tf.function
def inner(a):
    return a * 2.0


@tf.function
def user(x, h, n):
    y = x + v + tf.cast(h, tf.float32)
    z = tf.math.bessel_i0e(y) + inner(y)  # BesselI0e: an op tfscope does not define
    return {"z": z, "s": tf.reduce_sum(big) * float(n)}


user(tf.ones([3, 2]), tf.ones([2], tf.float16), 1)
user(tf.ones([5, 2]), tf.ones([2], tf.float16), 2)

keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="relu"),
                          keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(np.ones((8, 4), np.float32), np.ones((8, 1), np.float32), batch_size=4, epochs=1,
          verbose=0)

ds = tf.data.Dataset.range(4).map(lambda i: tf.cast(i, tf.float32) * 3.0)
list(ds)


def facts(cf):
    g = cf.graph
    internal = {id(t): e for e, t in g.captures}

    def row(t, name=None):
        return {"name": name or t.name, "dtype": t.dtype.name, "shape": str(t.shape)}

    def kind(e):
        if e.dtype == tf.resource:
            return "resource"
        return "tensor" if hasattr(e, "numpy") else "outer"

    ops = g.get_operations()
    return {"num_nodes": len(ops),
            "op_counts": dict(collections.Counter(op.type for op in ops)),
            "inputs": [row(t, t.op.name) for t in g.inputs],
            "captures": [dict(row(t, t.op.name), kind=kind(internal[id(t)])) for t in g.inputs
                         if id(t) in internal],
            "outputs": [row(t) for t in g.outputs],
            "library": sorted(f.signature.name for f in g.as_graph_def().library.function),
            "signature": cf.pretty_printed_signature(verbose=False)}


out = {}
# tf.data keeps the map function's concrete function, not its Function object
for cf in [ds._map_func.function]:
    out[cf.name.decode() if isinstance(cf.name, bytes) else str(cf.name)] = facts(cf)
for obj in gc.get_objects():
    if isinstance(obj, pf.Function):
        for cf in obj._function_cache.values():  # what TF traced (no new trace)
            name = cf.name.decode() if isinstance(cf.name, bytes) else str(cf.name)
            out[name] = facts(cf)
json.dump(out, open(sys.argv[1], "w"))
