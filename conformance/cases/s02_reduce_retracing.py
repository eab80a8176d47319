"""S2: the seed with reduce_retracing=True -> 3 traces: (2,),2 / (None,),2 / (4,),3 (literal 3 blocks relaxing)."""
@tf.function(reduce_retracing=True)
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
call("scaled([1,2,3],2) hits (None,)", scaled, tf.constant([1, 2, 3]), 2)
signatures("sigs", scaled)
