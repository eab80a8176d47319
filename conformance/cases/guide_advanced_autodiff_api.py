"""The API the "Advanced automatic differentiation" guide calls beyond the tape, as its API docs
show it: tf.norm's vector and matrix norms and their argument errors (eagerly and in a
tf.function, node for node), and a TensorShape converted to a tensor (the guide's
`tf.reduce_prod(layer1.kernel.shape)`): int32, int64 past int32, a partial shape's error, a
float dtype's error."""

x = tf.constant([[3.0, -4.0], [1.0, 2.0]])
for kw in [{}, {"axis": 1}, {"axis": 0, "keepdims": True}, {"ord": 1}, {"ord": np.inf, "axis": 1},
           {"ord": 3}, {"ord": "fro", "axis": (0, 1)}, {"ord": 1, "axis": [0, 1]},
           {"ord": np.inf, "axis": (0, 1)}, {"ord": "euclidean", "axis": -1}]:
    call(f"norm {kw}", lambda kw=kw: tf.norm(x, **kw))
for kw in [{"ord": -1}, {"axis": "a"}, {"ord": "nuc", "axis": (0, 1)}, {"axis": (1, 1)},
           {"ord": 0.0}]:
    attempt(f"norm {kw}", lambda kw=kw: tf.norm(x, **kw))
record("linalg.norm of a list", tf.linalg.norm([3.0, 4.0]))


@tf.function
def norms(x):
    return tf.norm(x, axis=1), tf.norm(x, ord=1), tf.norm(x, ord=np.inf, axis=(0, 1), name="inf")


call("norms", norms, x)
record("norms graph", [[n.name, n.op, list(n.input)] for n in
                       norms.get_concrete_function(x).graph.as_graph_def().node])

v = tf.Variable(x)
with tf.GradientTape() as tape:
    n = tf.norm(v, axis=1)
record("gradient of a norm", tape.gradient(n, v))

s = tf.TensorShape([5, 8])
call("reduce_prod of a TensorShape", tf.reduce_prod, s)
call("convert_to_tensor of a TensorShape", tf.convert_to_tensor, s)
call("constant of a TensorShape", tf.constant, s)
call("int64 past int32", tf.convert_to_tensor, tf.TensorShape([2**31, 2]))
call("as int64", tf.convert_to_tensor, s, dtype=tf.int64)
call("reshape to a TensorShape", lambda: tf.reshape(tf.range(40), s).shape)
attempt("partially known", lambda: tf.convert_to_tensor(tf.TensorShape([2, None])))
attempt("unknown rank", lambda: tf.convert_to_tensor(tf.TensorShape(None)))
attempt("as float32", lambda: tf.convert_to_tensor(s, dtype=tf.float32))


@tf.function
def shape_tensor():
    return tf.convert_to_tensor(s)


call("in a tf.function", shape_tensor)
record("its graph", [[n.name, n.op] for n in shape_tensor.get_concrete_function().graph.as_graph_def().node])
