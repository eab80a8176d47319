"""Nests: mutating a list argument inside the function raises ValueError; the caller's list is untouched."""
@tf.function
def f(x, l):
    l.append(x)
    return x

lst = [tf.constant(1)]
call("append to arg", f, tf.constant(2), lst)
record("len(lst)", len(lst))
count("count", f)

@tf.function
def g(d):
    d["new"] = 1
    return tf.constant(0)

call("dict setitem", g, {"a": tf.constant(1)})

@tf.function
def h(l):
    l2 = list(l)
    l2.append(1)
    return tf.constant(len(l2))

call("copy is fine", h, [1, 2])
