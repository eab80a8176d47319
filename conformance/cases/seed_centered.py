"""Seed 003 Q2: input_signature [None] float32 -> lengths 2 and 3 share one trace; scalar, rank 2, int32 rejected."""
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def centered(x):
    return x - tf.reduce_mean(x)

call("len2", centered, tf.constant([1.0, 3.0], dtype=tf.float32))
call("len3", centered, tf.constant([1.0, 3.0, 5.0], dtype=tf.float32))
call("scalar", centered, tf.constant(1.0))
call("rank2", centered, tf.constant([[1.0, 2.0]]))
call("int32", centered, tf.constant([1, 2]))
call("python list", centered, [1.0, 2.0, 6.0])
describe("cf", centered.get_concrete_function())
