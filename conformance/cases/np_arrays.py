"""numpy: arrays are typed by shape/dtype like tensors; new values of the same shape do not retrace."""
@tf.function
def f(x):
    print("trace", x.dtype, x.shape)
    return x * 2

call("ones 2x2 f64", f, np.ones([2, 2]))
call("zeros 2x2 f64", f, np.zeros([2, 2]))
call("ones 2x2 f32", f, np.ones([2, 2], np.float32))
call("tensor 2x2 f32 hits np f32 trace", f, tf.ones([2, 2]))
call("int64 vector", f, np.arange(3))
call("int32 vector", f, np.arange(3, dtype=np.int32))
signatures("sigs", f)
