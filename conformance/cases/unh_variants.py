"""Unhashable values (bytearray, sets inside nests) raise TypeError; frozensets are weakref-keyed (temporaries never hit)."""
@tf.function
def f(v):
    return tf.constant(1)

call("bytearray", f, bytearray(b"ab"))
call("dict with set", f, {"k": {1}})
call("nested", f, [{"k": [{2}]}])
call("frozenset temporary", f, frozenset([1, 2]))
call("equal frozenset temporary (first one died)", f, frozenset([2, 1]))
fs1 = frozenset([5, 6])
fs2 = frozenset([6, 5])
call("frozenset held", f, fs1)
call("equal frozenset held (matches by ==)", f, fs2)
count("count", f)
