"""Literals: each distinct Python int is a new trace; a repeated value hits its trace."""
@tf.function
def f(n):
    print("trace", n)
    return tf.constant(n) * 2

for n in (1, 2, 1, 3, 2):
    call(f"f({n})", f, n)
