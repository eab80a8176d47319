"""reduce_retracing inside nests, and experimental_relax_shapes=True as a deprecated alias (its warning text)."""
@tf.function(experimental_relax_shapes=True)
def f(d):
    print("trace", {k: v.shape for k, v in d.items()})
    return d["a"]

call("a(1) b(2)", f, {"a": tf.ones([1]), "b": tf.ones([2])})
call("a(2) b(2)", f, {"a": tf.ones([2]), "b": tf.ones([2])})
call("a(3) b(5)", f, {"a": tf.ones([3]), "b": tf.ones([5])})
signatures("sigs", f)
