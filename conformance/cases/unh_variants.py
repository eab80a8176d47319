"""Unhashable values: bytearray, list holding a dict holding a set, and a set as a dict value all raise TypeError."""
@tf.function
def f(v):
    return tf.constant(1)

call("bytearray", f, bytearray(b"ab"))
call("dict with set", f, {"k": {1}})
call("nested", f, [{"k": [{2}]}])
call("frozenset is fine", f, frozenset([1, 2]))
call("frozenset equal", f, frozenset([2, 1]))
count("count", f)
