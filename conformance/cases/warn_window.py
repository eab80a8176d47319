"""Warning: T N*10 TTTT -> warning at call 15 ('5 out of the last 15'); T T T T N*12 T -> none."""
@tf.function
def f(n):
    return tf.constant(n)

seq = [0] * 11 + [1, 2, 3, 4]
for i, n in enumerate(seq):
    call(f"f call {i + 1}: {n}", f, n)

@tf.function
def g(n):
    return tf.constant(n)

seq = [0, 1, 2, 3] + [3] * 12 + [4]
for i, n in enumerate(seq):
    call(f"g call {i + 1}: {n}", g, n)
