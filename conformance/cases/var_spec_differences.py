"""Variables: shape, dtype and trainable are part of the VariableSpec; a variable vs a tensor differ."""
@tf.function
def f(v):
    print("trace", v.shape, v.dtype, v.trainable if hasattr(v, "trainable") else "-")
    return tf.reduce_sum(v)

call("f32 (3,)", f, tf.Variable([1.0, 2.0, 3.0]))
call("f32 (3,) other", f, tf.Variable([4.0, 5.0, 6.0]))
call("f32 (2,)", f, tf.Variable([1.0, 2.0]))
call("i32 (3,)", f, tf.Variable([1, 2, 3]))
call("f32 (3,) not trainable", f, tf.Variable([1.0, 2.0, 3.0], trainable=False))
call("tensor f32 (3,)", f, tf.constant([1.0, 2.0, 3.0]))
signatures("sigs", f)
