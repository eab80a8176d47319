"""Function layer: a tf.function called in an AutoGraph while body: the body function holds a while/PartitionedCall; the callee is traced once and reused by the loop's every iteration."""
from cases._fn_graph import record_graph


@tf.function
def dbl(x):
    print("trace dbl")
    return x * 2


@tf.function
def lp(x):
    i = tf.constant(0)
    while i < 3:
        x = dbl(x)
        i += 1
    return x


call("lp(1)", lp, tf.constant(1))
call("lp(5)", lp, tf.constant(5))
count("dbl count", dbl)
record_graph(record, "lp", lp.get_concrete_function(tf.constant(1)))
