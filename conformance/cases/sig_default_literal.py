"""input_signature: parameters beyond the signature with defaults get Literal constraints from the default."""
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def f(x, training=True):
    print("trace training", training)
    return x * (2.0 if training else 1.0)

x = tf.constant([1.0, 2.0])
call("f(x)", f, x)
call("f(x, True)", f, x, True)
call("f(x, training=False)", f, x, training=False)
signatures("sigs", f)
