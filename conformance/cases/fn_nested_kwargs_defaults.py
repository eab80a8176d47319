"""Function layer: an inner function called with keywords and defaults inside a trace binds as an eager call does: keyword order does not matter, a default literal is part of the key."""


@tf.function
def inner(x, scale=2, *, shift=0):
    print("trace inner", scale, shift)
    return x * scale + shift


@tf.function
def outer(x):
    return inner(x) + inner(x, scale=2) + inner(x, 2, shift=0) + inner(shift=1, x=x)


call("outer", outer, tf.constant([1, 2]))
count("inner count", inner)
call("inner eagerly, defaults", inner, tf.constant([3, 4]))
count("inner count after eager", inner)
