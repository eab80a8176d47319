"""Function layer: an inner function with an int32 input_signature called with a float tensor inside another trace: TF's binding error propagates from the outer call (type and text), nothing is cached; a good outer call afterwards traces both."""
@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def inner(x):
    return x + 1


@tf.function
def outer(x):
    return inner(x)


attempt("outer(float)", lambda: outer(tf.constant([1.0, 2.0])))
count("inner count after the error", inner)
count("outer count after the error", outer)
call("outer(int)", outer, tf.constant([1, 2]))
count("inner count", inner)
count("outer count", outer)
