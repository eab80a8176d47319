"""Dispatch: the most specific compatible trace serves a call; ties -> the earliest inserted; get_concrete_function dispatches too."""
@tf.function
def f(x):
    print("trace", x.shape)
    return tf.constant(str(x.shape))  # the static shape of the trace that served the call

concrete("[None,3]", f, tf.TensorSpec([None, 3], tf.float32))
concrete("[2,None]", f, tf.TensorSpec([2, None], tf.float32))
call("(2,3) -> earliest ([None,3])", f, tf.ones([2, 3]))
call("(5,3) -> [None,3]", f, tf.ones([5, 3]))
call("(2,7) -> [2,None]", f, tf.ones([2, 7]))
concrete("[None,None]", f, tf.TensorSpec([None, None], tf.float32))
call("(4,4) -> [None,None]", f, tf.ones([4, 4]))
call("(2,3) still [None,3]", f, tf.ones([2, 3]))
concrete("spec [2,3] dispatches, no new trace", f, tf.TensorSpec([2, 3], tf.float32))
call("(2,3) -> still [None,3]", f, tf.ones([2, 3]))
count("count", f)

@tf.function
def g(x):
    print("g trace", x.shape)
    return tf.constant(str(x.shape))

concrete("g unknown rank", g, tf.TensorSpec(None, tf.float32))
call("g scalar", g, tf.constant(1.0))
call("g matrix", g, tf.ones([2, 2]))
call("g int", g, tf.constant(1))
