"""Strings: tf.constant of bytes (a list, nested, a scalar), `+` on tf.string (TF's Add, not
AddV2: node "add" of op Add in a tf.function) with broadcasting and TF's shape error, a string
TensorArray."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


call("bytes list", lambda: tf.constant([b"a", b"b"]))
call("nested bytes", lambda: tf.constant([[b"a"], [b"bc"]]))
call("bytes scalar", lambda: tf.constant(b"xy"))
call("bytes and str", lambda: tf.constant([b"a", "b"]))
call("convert bytes", lambda: tf.convert_to_tensor([b"q"]))
a = tf.constant(["a", "b"])
call("add", lambda: a + a)
call("add a Python str", lambda: a + "x")
call("radd a Python str", lambda: "p" + a)
call("broadcast", lambda: tf.constant([["u"], ["v"]]) + a)
call("incompatible shapes", lambda: a + tf.constant(["a", "b", "c"]))
call("string TensorArray", lambda: tf.TensorArray(tf.string, size=2).write(0, b"a").write(1, "bc").stack())


@tf.function
def greet(name):
    return "hello, " + name + "!"


call("greet", greet, tf.constant("tf"))
call("greet a vector", greet, tf.constant(["a", "b"]))
record("greet nodes", nodes(greet.get_concrete_function(tf.constant("tf"))))
count("greet traces", greet)
