"""input_signature + reduce_retracing: the signature wins; one trace; get_concrete_function() without args."""
@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)], reduce_retracing=True)
def f(x):
    print("trace", x.shape)
    return x + 1

cf = concrete("gcf()", f)
call("call (3,)", f, tf.constant([1.0, 2.0, 3.0]))
call("call (2,)", f, tf.constant([1.0, 2.0]))
describe("cf", cf)
call("cf directly", cf, tf.constant([0.0, 0.0, 0.0]))
