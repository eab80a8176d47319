"""reduce_retracing: shapes (0,), (1,), (2,) -> traces 1, 2 (relaxed to (None,)), 2 (testInputShapeFunctionRelaxation)."""
@tf.function(reduce_retracing=True)
def func(x):
    print("trace", x.shape)
    return x

call("[]", func, tf.constant([], tf.float32))
call("[1.0]", func, tf.constant([1.0]))
call("[1.0, 2.0]", func, tf.constant([1.0, 2.0]))
call("scalar", func, tf.constant(1.0))
call("2x2", func, tf.constant([[1.0, 2.0], [3.0, 4.0]]))
call("3x3", func, tf.ones([3, 3]))
call("5x5x5", func, tf.ones([5, 5, 5]))
signatures("sigs", func)
