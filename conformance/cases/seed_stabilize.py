"""Seed 000 stabilize: an explicit input_signature with None dims stops shape retracing."""
def body(x):
    print("trace", x.shape)
    return tf.reduce_sum(x, axis=1)

loose = tf.function(body)
stable = tf.function(body, input_signature=[tf.TensorSpec([None, 4], tf.float32)])
for n in (1, 2, 3, 5):
    x = tf.ones([n, 4])
    call(f"loose n={n}", loose, x)
    call(f"stable n={n}", stable, x)
call("stable wrong feature dim", stable, tf.ones([2, 3]))
signatures("stable", stable)
