"""Facts: tf.print formatting (eager and in a graph) of ints, floats, strings, bools, nests, scalars and large tensors."""
items = [
    ("int scalar", tf.constant(3)),
    ("int vector", tf.constant([1, 2, 3])),
    ("float scalar", tf.constant(1.5)),
    ("float values", tf.constant([0.1, 1e-8, 1e10, 123456.789, -2.0])),
    ("float64", tf.constant([0.1, 1 / 3], tf.float64)),
    ("nan inf", tf.constant([float("nan"), float("inf"), -float("inf")])),
    ("bool", tf.constant([True, False])),
    ("string", tf.constant("hi there")),
    ("string vector", tf.constant(["a", "b c"])),
    ("2-D", tf.constant([[1, 2], [3, 4]])),
    ("3-D", tf.reshape(tf.range(8), [2, 2, 2])),
    ("large 1-D", tf.range(100)),
    ("large 2-D", tf.reshape(tf.range(100), [10, 10])),
    ("empty", tf.zeros([0])),
]
for name, t in items:
    tf.print(name + ":", t)
tf.print("python values:", 1, 2.5, True, "str", None, [1, [2.0, "x"]], (3, 4), {"b": 1, "a": 2})
tf.print("large summarize=2:", tf.range(100), summarize=2)
tf.print("large summarize=-1:", tf.range(12), summarize=-1)

@tf.function
def in_graph(i, fl, b, s, m, big):
    tf.print("graph int:", i, "float:", fl, "bool:", b, "string:", s)
    tf.print("graph 2-D:", m, "big:", big)
    tf.print("graph python:", 1, 2.5, True, "str", [1, 2])
    tf.print("graph tensor list:", [i, fl])
    return i

call("in_graph", in_graph, tf.constant(3), tf.constant([0.1, 2.5]), tf.constant(True), tf.constant("s"),
     tf.constant([[1.5, 2.0], [3.0, 4.0]]), tf.range(50))
