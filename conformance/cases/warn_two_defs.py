"""Warning: detectors are per def: f(1..4) then g(1..5) -> exactly one warning (from g, on its 5th call)."""
@tf.function
def f(n):
    return tf.constant(n)

@tf.function
def g(n):
    return tf.constant(n)

for n in range(1, 5):
    call(f"f({n})", f, n)
for n in range(1, 6):
    call(f"g({n})", g, n)
