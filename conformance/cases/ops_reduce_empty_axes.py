"""Ops: a reduction over an empty Python list of axes in a tf.function. TF's op_def_library
converts `[]` first without a dtype (a float32 Const, which Sum's Tidx refuses) and then as int32:
the graph keeps the unused `Sum/reduction_indices` and the Sum reads `Sum/reduction_indices_1`.
A non-empty list converts once. The values are the input's (nothing reduced)."""
from cases._fn_graph import graph


@tf.function
def g(a):
    return (tf.reduce_sum(a, [], keepdims=True), tf.reduce_max(a, []),
            tf.reduce_sum(a, axis=[0]), tf.reduce_mean(a, []))


a = tf.constant([[1.5, -2.0]])
record("values", [t.numpy() for t in g(a)])
record("graph", graph(g.get_concrete_function(tf.TensorSpec([1, 2]))))
