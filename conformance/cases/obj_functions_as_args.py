"""Objects: functions are keyed by identity; the same function hits, another def with the same body retraces."""
def double(t):
    return t * 2

def triple(t):
    return t * 3

@tf.function
def apply(fn, x):
    print("trace", fn.__name__)
    return fn(x)

x = tf.constant(2)
call("double", apply, double, x)
call("double again", apply, double, x)
call("triple", apply, triple, x)
def dec_a(t):
    return t - 1

def dec_b(t):
    return t - 1

call("dec_a", apply, dec_a, x)
call("dec_b (same body, other object)", apply, dec_b, x)
