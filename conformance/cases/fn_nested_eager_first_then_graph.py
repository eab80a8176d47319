"""Function layer: an inner function first called eagerly with a (2,) tensor, then inside an outer trace with a (None,) tensor (the outer has an input_signature): the eager trace cannot serve the unknown length, so the inner traces again; a later eager (2,) call still hits the first trace."""
@tf.function
def inner(x):
    print("trace inner", x.shape)
    return tf.reduce_sum(x)


call("inner eagerly (2,)", inner, tf.constant([1, 2]))


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def outer(x):
    return inner(x) * 10


call("outer (3,)", outer, tf.constant([1, 2, 3]))
count("inner count after outer", inner)
call("inner eagerly (2,) again", inner, tf.constant([5, 6]))
call("inner eagerly (5,)", inner, tf.constant([1, 1, 1, 1, 1]))
count("inner count", inner)
