"""Warning: get_concrete_function first (not recorded), then the first call hits: N T T T T -> warnings at 5 and 6."""
@tf.function
def f(x, n):
    return x + n

x = tf.constant(1)
concrete("gcf(x, 0)", f, x, 0)
for i, n in enumerate([0, 1, 2, 3, 4, 5, 6]):
    call(f"call {i + 1}: n={n}", f, x, n)
