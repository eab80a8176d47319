"""Ops: reduce_mean/sum/max/min with axis and keepdims; integer mean truncates; graph op types."""
m = tf.constant([[1, 2, 4], [3, 5, 8]])
mf = tf.cast(m, tf.float32)
record("sum", tf.reduce_sum(m))
record("sum axis 0", tf.reduce_sum(m, axis=0))
record("sum axis 1 keepdims", tf.reduce_sum(m, axis=1, keepdims=True))
record("mean int (truncates)", tf.reduce_mean(m))
record("mean float", tf.reduce_mean(mf))
record("mean axis -1", tf.reduce_mean(mf, axis=-1))
record("max", tf.reduce_max(m))
record("min axis 0", tf.reduce_min(m, axis=0))
record("sum axes [0,1]", tf.reduce_sum(mf, axis=[0, 1]))
record("max of empty float", tf.reduce_max(tf.zeros([0])))
record("sum of empty", tf.reduce_sum(tf.zeros([0])))

@tf.function
def red(x):
    return tf.reduce_sum(x), tf.reduce_mean(x, axis=0), tf.reduce_max(x, axis=1, keepdims=True), tf.reduce_min(x)

call("graph", red, mf)
graph_ops("ops", red.get_concrete_function(mf))
