"""Function layer: reduce_retracing on the outer function relaxes its own trace to (None,); the inner function, called from that trace with a (None,) tensor, is traced once for (None,) and serves every length."""


@tf.function
def inner(x):
    print("trace inner", x.shape)
    return x * 2


@tf.function(reduce_retracing=True)
def outer(x):
    print("trace outer", x.shape)
    return inner(x) + 1


for n in (1, 2, 3, 4):
    call(f"outer(len {n})", outer, tf.range(n))
count("inner count", inner)
count("outer count", outer)
signatures("inner signatures", inner)
