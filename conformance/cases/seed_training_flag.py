"""Seed 003 Q4: a Python training flag specialises the trace (one per value); a tensor flag needs tf.cond."""
@tf.function
def layer(x, training):
    print("trace training =", training)
    if training:
        return x * 0.5
    return x

x = tf.constant([2.0, 4.0])
call("train", layer, x, True)
call("eval", layer, x, False)
call("train again", layer, x, True)
call("train=1 (same Literal as True)", layer, x, 1)

@tf.function
def layer_t(x, training):
    print("trace tensor training")
    return tf.cond(training, lambda: x * 0.5, lambda: x)

call("t train", layer_t, x, tf.constant(True))
call("t eval", layer_t, x, tf.constant(False))
graph_ops("layer_t ops", layer_t.get_concrete_function(x, tf.constant(True)))
