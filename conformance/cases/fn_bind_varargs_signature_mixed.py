"""A parameter before *args with an input_signature: it turns positional-only, *args takes the
constraints left (rest_0), **kwargs is dropped; arity errors name the unrolled parameters."""
@tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
def g(a, *rest, **extra):
    return a * 10 + rest[0] + len(extra)


call("two", g, 1, 2)
call("two tensors", g, tf.constant(3), tf.constant(4))
call("one", g, 1)
call("three", g, 1, 2, 3)
call("a by keyword", g, a=1)
call("a keyword the signature drops", g, 1, 2, k=3)
signatures("sigs", g)
count("count", g)


def too_many(*args):
    return args


attempt("no *args and a constraint too many",
        lambda: tf.function(lambda x: x, input_signature=[tf.TensorSpec([]), tf.TensorSpec([])]))
attempt("missing constraint",
        lambda: tf.function(lambda x, y: x, input_signature=[tf.TensorSpec([])]))
f0 = tf.function(too_many, input_signature=[])
call("empty signature", f0)
call("empty signature, one argument", f0, 1)
