"""input_signature: a named TensorSpec names the placeholder; the name appears in signatures."""
@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="features")])
def f(x):
    print("trace", x)
    return tf.reduce_sum(x, axis=0)

call("call", f, tf.ones([3, 2]))
call("int", f, tf.ones([3, 2], tf.int32))
describe("cf", f.get_concrete_function())
