"""Nests: dict of tensors; leaves are flattened in sorted key order; shape change of one leaf retraces."""
@tf.function
def f(d):
    print("trace", sorted(d))
    return d["b"] * 10 + d["a"]

d1 = {"b": tf.constant([1, 2]), "a": tf.constant([3, 4])}
call("d1", f, d1)
call("d1 reordered", f, {"a": tf.constant([5, 6]), "b": tf.constant([7, 8])})
call("a longer", f, {"a": tf.constant([5, 6, 7]), "b": tf.constant(1)})
cf = f.get_concrete_function(d1)
describe("cf(d1)", cf)
call("cf flat a,b", cf, tf.constant([1, 1]), tf.constant([2, 2]))
