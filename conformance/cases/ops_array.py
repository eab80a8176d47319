"""Ops: zeros/ones/fill, reshape, concat, stack, cast, range, shape: values, dtypes and graph op types."""
record("zeros", tf.zeros([2, 3]))
record("ones int32", tf.ones([2], tf.int32))
record("fill", tf.fill([2, 2], 7))
record("fill float", tf.fill([3], 0.5))
record("reshape -1", tf.reshape(tf.range(6), [3, -1]))
record("concat axis 0", tf.concat([tf.ones([1, 2]), tf.zeros([2, 2])], axis=0))
record("concat axis -1", tf.concat([tf.ones([2, 1]), tf.zeros([2, 2])], -1))
record("stack", tf.stack([tf.constant([1, 2]), tf.constant([3, 4])]))
record("stack axis 1", tf.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1))
record("cast float->int truncates", tf.cast(tf.constant([1.7, -1.7, 2.5]), tf.int32))
record("cast int->bool", tf.cast(tf.constant([0, 2]), tf.bool))
record("range(5)", tf.range(5))
record("range(1, 2, 0.25)", tf.range(1, 2, 0.25))
record("range float start", tf.range(0.0, 3.0))
record("shape", tf.shape(tf.zeros([2, 3])))
record("shape dtype int64", tf.shape(tf.zeros([2, 3]), out_type=tf.int64))

@tf.function
def arr(x, n):
    z = tf.zeros([2, n])
    o = tf.ones([2, n])
    f = tf.fill([2, n], 3.0)
    c = tf.concat([z, o, f], axis=0)
    s = tf.stack([x, x])
    r = tf.reshape(c, [-1])
    return tf.cast(r, tf.int32), s, tf.shape(c), tf.range(n)

call("graph", arr, tf.constant([1.0, 2.0]), 2)
graph_ops("ops", arr.get_concrete_function(tf.constant([1.0, 2.0]), 2))

@tf.function
def dyn(x):
    return tf.zeros(tf.shape(x)), tf.fill(tf.shape(x), 2), tf.range(tf.shape(x)[0])

call("dynamic shapes", dyn, tf.constant([5, 6, 7]))
graph_ops("dynamic ops", dyn.get_concrete_function(tf.TensorSpec([None], tf.int32)))
