"""Errors: a data-dependent failure inside a graph raises InvalidArgumentError at run time (node name, function name)."""
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def to_square(x):
    return tf.reshape(x, [2, 2])

call("4 values", to_square, tf.constant([1.0, 2.0, 3.0, 4.0]))
call("3 values", to_square, tf.constant([1.0, 2.0, 3.0]))
count("count", to_square)
