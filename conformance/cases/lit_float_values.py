"""Literals: floats are keyed by value (0.1+0.2 != 0.3); a float return value becomes a float32 tensor."""
@tf.function
def f(v):
    print("trace", v)
    return v

call("0.3", f, 0.3)
call("0.1+0.2", f, 0.1 + 0.2)
call("0.3 again", f, 0.3)
call("1e10", f, 1e10)
call("inf", f, float("inf"))
call("-inf", f, float("-inf"))
call("inf again", f, float("inf"))
