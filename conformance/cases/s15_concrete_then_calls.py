"""S15: get_concrete_function(TensorSpec([None], int32), 2) then the seed calls -> 2 traces in total."""
@tf.function
def scaled(x, factor):
    print("TRACE", x.shape, factor)
    tf.print("RUN", tf.shape(x), factor)
    return x * factor

a = tf.constant([1, 2])
b = tf.constant([8, 9])
c = tf.constant([1, 2, 3, 4])

cf = concrete("gcf([None],2)", scaled, tf.TensorSpec([None], tf.int32), 2)
call("scaled(a,2)", scaled, a, 2)
call("scaled(b,2)", scaled, b, 2)
call("scaled(c,2)", scaled, c, 2)
call("scaled(c,3)", scaled, c, 3)
describe("cf", cf)
signatures("sigs", scaled)
