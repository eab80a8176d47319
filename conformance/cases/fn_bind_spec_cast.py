"""get_concrete_function with specs against an input_signature: a spec of unknown shape or an
unknown dimension does not cast to a more specific one; a more specific one casts."""
@tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
def sp(x):
    return x


concrete("unknown rank", sp, tf.TensorSpec(None, tf.float32))
concrete("unknown dimension", sp, tf.TensorSpec([None], tf.float32))
concrete("the same spec", sp, tf.TensorSpec([2], tf.float32))
concrete("another dtype", sp, tf.TensorSpec([2], tf.int32))


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def partial(x):
    return x


concrete("fully known into partial", partial, tf.TensorSpec([4, 3], tf.float32))
concrete("unknown rank into partial", partial, tf.TensorSpec(None, tf.float32))
concrete("wrong dimension", partial, tf.TensorSpec([4, 2], tf.float32))
count("count", partial)
