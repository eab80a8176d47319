"""tf.TensorArray in a tf.function: the TensorList kernels' run-time errors (writing or reading
past a static size, stacking elements never written with an unknown element shape), raised as
TF's graph execution errors naming the node."""


@tf.function
def write_past_end():
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(3, 1.)
    return ta.stack()


@tf.function
def read_past_end():
    return tf.TensorArray(tf.float32, size=2).read(3)


@tf.function
def stack_unset():
    return tf.TensorArray(tf.float32, size=2).stack()


call("graph write past the end", write_past_end)
call("graph read past the end", read_past_end)
call("graph stack of unset elements", stack_unset)
