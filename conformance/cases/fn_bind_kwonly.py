"""Keyword-only parameters: a missing one, one passed positionally; with an input_signature one
without a default is refused at decoration and one with a default is a Literal of it."""
@tf.function
def kwo(x, *, k):
    return x + k


call("missing keyword-only", kwo, 1)
call("keyword-only given", kwo, 1, k=2)
call("keyword-only passed positionally", kwo, 1, 2)


def no_default(x, *, k):
    return x + k


attempt("input_signature, keyword-only without default",
        lambda: tf.function(no_default, input_signature=[tf.TensorSpec([], tf.int32)]))


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def with_default(x, *, k=1):
    return x + k


call("default", with_default, 1)
call("default given again", with_default, 1, k=1)
call("another value", with_default, 1, k=5)
signatures("sigs", with_default)
count("count", with_default)
