"""Warning: TTTTT -> a warning on call 5 ('5 out of the last 5'); TTTTTTT -> also on 6, none after (max 2)."""
@tf.function
def f(n):
    return tf.constant(n)

for i in range(8):
    call(f"f({i})", f, i)
