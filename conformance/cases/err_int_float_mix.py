"""Errors: int32 * float32 eager and inside tf.function; int tensor * Python float; exact messages."""
i = tf.constant([1, 2])
f = tf.constant([1.5, 2.5])
attempt("eager int32 * float32", lambda: i * f)
attempt("eager float32 * int32", lambda: f * i)
attempt("eager int32 * 2.5", lambda: i * 2.5)
attempt("eager int32 + 'a'", lambda: i + "a")
record("eager float32 * 2 (int literal ok)", f * 2)
attempt("eager int32 * 2.0 (integral float)", lambda: i * 2.0)

@tf.function
def mul(a, b):
    return a * b

call("graph int32 * float32", mul, i, f)
call("graph int32 * 2.5", mul, i, 2.5)
call("graph float32 * 2", mul, f, 2)
