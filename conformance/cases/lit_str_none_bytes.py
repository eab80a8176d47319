"""Literals: str, bytes and None are keyed by value; 'a' and b'a' differ."""
@tf.function
def f(v):
    print("trace", repr(v))
    return tf.constant(0)

call("'a'", f, "a")
call("'b'", f, "b")
call("'a' again", f, "a")
call("b'a'", f, b"a")
call("None", f, None)
call("None again", f, None)
signatures("sigs", f)
