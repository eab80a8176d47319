"""Function layer: an inner function returning Python values: numbers and strings come back to the caller as tensors (outputs of the call), None stays None, the nest is rebuilt."""


@tf.function
def py_out(x):
    return 1, None, [x, 2.5], {"k": "s"}


@tf.function
def use_py(x):
    a, b, c, d = py_out(x)
    print("a", a.dtype, a.shape, "b", b, "c[1]", c[1].dtype, "d", sorted(d), d["k"].dtype)
    return c[0] + a, c[1], d["k"]


call("use_py(3)", use_py, tf.constant(3))
count("py_out count", py_out)
call("py_out eagerly", py_out, tf.constant(3))
