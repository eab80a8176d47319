"""Function layer: an inner function's cache across the outer function's traces and eager calls: each new outer shape traces the inner function for it; the inner's own reduce_retracing relaxes shapes as it does eagerly."""


@tf.function(reduce_retracing=True)
def inner(x):
    print("trace inner", x.shape)
    return tf.reduce_sum(x)


@tf.function
def outer(x):
    print("trace outer", x.shape)
    return inner(x) * 2


for n in (1, 2, 3, 4):
    call(f"outer(len {n})", outer, tf.range(n))
    count(f"inner count after len {n}", inner)
    count(f"outer count after len {n}", outer)
call("inner eagerly, len 7", inner, tf.range(7))
count("inner count at the end", inner)
signatures("inner signatures", inner)
