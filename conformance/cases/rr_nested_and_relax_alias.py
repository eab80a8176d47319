"""reduce_retracing inside nests (each leaf relaxes on its own), and experimental_relax_shapes=True as an alias (no deprecation log in 2.21)."""
@tf.function(experimental_relax_shapes=True)
def f(d):
    print("trace", {k: v.shape for k, v in d.items()})
    return d["a"]

call("a(1) b(2)", f, {"a": tf.ones([1]), "b": tf.ones([2])})
call("a(2) b(2)", f, {"a": tf.ones([2]), "b": tf.ones([2])})
call("a(3) b(5)", f, {"a": tf.ones([3]), "b": tf.ones([5])})
signatures("sigs", f)
