"""numpy values as op operands, as real programs mix them in (`x / np.sqrt(d_k)`, `np.pi * x`,
`tf.where(c, x, np.float64(0))`): TF converts a numpy value like a host value, to the dtype the op
has bound so far (numpy's astype: float64 becomes float32 beside a float32 tensor, 2.5 becomes 2
beside an int32 one), and keeps its own dtype only where nothing is bound yet (tf.add's first
operand, a generated op's first input in a graph, both operands numpy). A list input takes its
dtype from its first tensor, not from a numpy item. The converted constant is the op's input
(`mul/y`). Python scalars follow the same order rule: tf.maximum(1, x) fails in a graph."""
import numpy as np

x = tf.constant([1.0, 2.0])
xi = tf.constant([3, 4])
v = tf.Variable([1.0, 2.0])

cases = {
    "x * np.float64": lambda: x * np.float64(0.125),
    "x * float64 array": lambda: x * np.array([1.0, 2.0]),
    "x * int64 array": lambda: x * np.array([1, 2]),
    "x * np.int64": lambda: x * np.int64(3),
    "x * np.bool_": lambda: x * np.bool_(True),
    "x * float32 array": lambda: x * np.array([2.0], np.float32),
    "x + np.int8": lambda: x + np.int8(1),
    "int x * np.float64": lambda: xi * np.float64(2.5),
    "int x // np.float64": lambda: xi // np.float64(2.0),
    "x / np.sqrt": lambda: x / np.sqrt(64),
    "np.pi * x": lambda: np.pi * x,
    "np.float64 * x": lambda: np.float64(0.5) * x,
    "float64 array + x": lambda: np.array([1.0, 2.0]) + x,
    "v * np.float64": lambda: v * np.float64(0.5),
    "np.float64 * v": lambda: np.float64(0.5) * v,
    "x == np.float64": lambda: tf.equal(x, np.float64(1.0)),
    "tf.add(x, np)": lambda: tf.add(x, np.float64(0.5)),
    "tf.add(np, x)": lambda: tf.add(np.float64(0.5), x),
    "tf.add(np, np)": lambda: tf.add(np.float64(1), np.float32(2)),
    "tf.multiply(x, array)": lambda: tf.multiply(x, np.array([1.0, 2.0])),
    "tf.maximum(x, np)": lambda: tf.maximum(x, np.float64(0.5)),
    "tf.concat np second": lambda: tf.concat([x, np.array([3.0])], 0),
    "tf.concat np first": lambda: tf.concat([np.array([3.0]), x], 0),
    "tf.stack np second": lambda: tf.stack([x, np.array([3.0, 4.0])]),
    "tf.stack np first": lambda: tf.stack([np.array([3.0, 4.0]), x]),
    "tf.where np else": lambda: tf.where(x > 1, x, np.float64(0)),
    "tf.matmul": lambda: tf.matmul(tf.ones([1, 2]), np.ones([2, 1])),
    "tf.fill": lambda: tf.fill([2], np.float64(1.5)),
    "tf.constant float32": lambda: tf.constant(np.float64(1.5), dtype=tf.float32),
    "tf.constant int32": lambda: tf.constant(np.array([1.5, -2.5]), dtype=tf.int32),
    "tf.maximum(1, x)": lambda: tf.maximum(1, x),
    "tf.maximum(1.5, x)": lambda: tf.maximum(1.5, x),
    "tf.multiply(2, x)": lambda: tf.multiply(2, x),
    "tf.multiply(np, x)": lambda: tf.multiply(np.float64(2), x),
    "tf.subtract(np, x)": lambda: tf.subtract(np.float64(2), x),
    "tf.divide(np, x)": lambda: tf.divide(np.float64(2), x),
    "tf.pow(np, x)": lambda: tf.pow(np.float64(2), x),
    "tf.where(c, 1, x)": lambda: tf.where(x > 1, 1, x),
    "tf.where(c, np, x)": lambda: tf.where(x > 1, np.float64(0), x),
    "tf.math.squared_difference(np, x)": lambda: tf.math.squared_difference(np.float64(2), x),
    "tf.equal(np, x)": lambda: tf.equal(np.float64(1), x),
    "tf.math.floordiv(np, x)": lambda: tf.math.floordiv(np.float64(3), x),
    "tf.minimum(x, np)": lambda: tf.minimum(x, np.float64(1.5)),
}
for name, fn in cases.items():
    call("eager " + name, fn)
for name, fn in cases.items():
    call("graph " + name, tf.function(fn, autograph=False))


@tf.function
def attention_scale(q, k):
    return tf.matmul(q, k, transpose_b=True) / np.sqrt(np.float64(k.shape[-1]))


call("attention scale", attention_scale, tf.ones([2, 4]), tf.ones([3, 4]))
cf = tf.function(lambda: (x * np.float64(0.125), np.pi * x), autograph=False).get_concrete_function()
# Sorted: TF captures the eager x (a Const, "mul/x") when its wrapper converts it, before "mul/y";
# tfscope captures it when the Mul node is added, after "mul/y" (the same for a Python float
# operand: an order-only difference of the GraphDef, not of any name, input or value).
record("nodes", sorted((n.name, n.op, list(n.input)) for n in cf.graph.as_graph_def().node))
