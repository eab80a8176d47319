"""reduce_retracing: a differing Python literal prevents relaxation against other traces (testNestedInputShapeFunctionRelaxation)."""
@tf.function(reduce_retracing=True)
def f(x, tag):
    print("trace", x.shape, tag)
    return x

call("(1,) hi", f, tf.ones([1]), "hi")
call("(2,) hi", f, tf.ones([2]), "hi")
call("(3,) bye", f, tf.ones([3]), "bye")
call("(4,) bye", f, tf.ones([4]), "bye")
call("(5,) hi", f, tf.ones([5]), "hi")
signatures("sigs", f)
