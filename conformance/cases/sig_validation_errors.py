"""input_signature validation, all raised when tf.function() is applied: dict, non-spec leaf, extra specs, missing specs, kw-only without default."""
def one(x):
    return x

def two(x, y):
    return x + y

def kwonly(x, *, b):
    return x

spec = tf.TensorSpec([None], tf.float32)
attempt("dict signature", lambda: tf.function(one, input_signature={"x": spec}))
attempt("non-spec leaf", lambda: tf.function(one, input_signature=[1]))
f_extra = attempt("extra spec", lambda: tf.function(one, input_signature=[spec, spec]))
if f_extra is not None:
    call("extra spec: call", f_extra, tf.constant([1.0]))
f_missing = attempt("missing spec", lambda: tf.function(two, input_signature=[spec]))
if f_missing is not None:
    call("missing spec: call", f_missing, tf.constant([1.0]), tf.constant([1.0]))
f_kw = attempt("kw-only without default", lambda: tf.function(kwonly, input_signature=[spec]))
if f_kw is not None:
    call("kw-only: call", f_kw, tf.constant([1.0]), b=1)
