"""S3: the seed with input_signature [TensorSpec([None], int32), TensorSpec([], int32)] -> 1 trace; ints converted."""
@tf.function(input_signature=[tf.TensorSpec([None], tf.int32), tf.TensorSpec([], tf.int32)])
def scaled(x, factor):
    print("TRACE", x.shape, factor)
    tf.print("RUN", tf.shape(x), factor)
    return x * factor

a = tf.constant([1, 2])
b = tf.constant([8, 9])
c = tf.constant([1, 2, 3, 4])

call("scaled(a,2)", scaled, a, 2)
call("scaled(b,2)", scaled, b, 2)
call("scaled(c,2)", scaled, c, 2)
call("scaled(c,3)", scaled, c, 3)
describe("cf", scaled.get_concrete_function())
