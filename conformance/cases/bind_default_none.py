"""Binding: a None default equals passing None; a tensor in its place traces again."""
@tf.function
def f(x, bias=None):
    print("trace bias", bias)
    if bias is None:
        return x
    return x + bias

x = tf.constant([1.0, 2.0])
call("f(x)", f, x)
call("f(x, None)", f, x, None)
call("f(x, bias=None)", f, x, bias=None)
call("f(x, tensor)", f, x, tf.constant(1.0))
call("f(x, 1.0)", f, x, 1.0)
