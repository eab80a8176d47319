"""input_signature call errors: dtype, rank, unconvertible Python value, arity, keyword; text of the wrapper."""
@tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([], tf.int32)])
def scaled(x, factor):
    return x * factor

call("ok", scaled, tf.constant([1, 2]), 2)
call("float x", scaled, tf.constant([1.0, 2.0]), 2)
call("rank 2", scaled, tf.constant([[1, 2], [3, 4]]), 2)
call("2.5 factor", scaled, tf.constant([1, 2]), 2.5)
call("string factor", scaled, tf.constant([1, 2]), "two")
call("too many", scaled, tf.constant([1, 2]), 2, 3)
call("missing", scaled, tf.constant([1, 2]))
call("unexpected kw", scaled, tf.constant([1, 2]), 2, y=1)
call("by keyword ok", scaled, factor=3, x=tf.constant([1]))
call("numpy int64 array", scaled, np.array([1, 2]), 2)
