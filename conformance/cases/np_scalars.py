"""numpy: numpy scalars (incl. NaN) are TensorSpecs, not Literals: different values share a trace."""
@tf.function
def f(x):
    print("trace", x)
    return x + 1

call("np.float32(1)", f, np.float32(1))
call("np.float32(2)", f, np.float32(2))
call("np.float32(nan)", f, np.float32("nan"))
call("tf.ones([]) hits", f, tf.ones([]))
call("np.ones([], f32) hits", f, np.ones([], np.float32))
call("np.int64(5)", f, np.int64(5))
call("python 5 is a literal", f, 5)
signatures("sigs", f)
