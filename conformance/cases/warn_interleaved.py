"""Warning: TNTNTNTNT -> warning at call 9 ('5 out of the last 9')."""
@tf.function
def f(n):
    return tf.constant(n)

seq = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5]
for i, n in enumerate(seq):
    call(f"call {i + 1}: f({n})", f, n)
