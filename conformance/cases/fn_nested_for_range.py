"""Function layer: a tf.function called in an AutoGraph `for i in tf.range(n)` loop, accumulating: the loop body holds the call, the callee traced once; values for two n."""
@tf.function
def step(acc, i):
    print("trace step")
    return acc + i * i


@tf.function
def sum_squares(n):
    acc = tf.constant(0)
    for i in tf.range(n):
        acc = step(acc, i)
    return acc


call("sum_squares(4)", sum_squares, tf.constant(4))
call("sum_squares(10)", sum_squares, tf.constant(10))
count("step count", step)
count("sum_squares count", sum_squares)
