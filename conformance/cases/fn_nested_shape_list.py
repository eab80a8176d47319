"""Function layer (issue 13's wrong value): an inner function called with a static shape list inside a trace returns [3, 3] (the list is a Python value of the callee's key, baked into its graph), not []."""


@tf.function
def inner(s):
    print("inner sees", s)
    return tf.constant(s)


@tf.function
def outer(x):
    return inner(x.shape.as_list())


call("outer(ones [3, 3])", outer, tf.ones([3, 3]))
call("outer(ones [2, 5])", outer, tf.ones([2, 5]))
count("inner count", inner)
call("inner([3, 3]) eagerly", inner, [3, 3])
count("inner count after eager", inner)
