"""Warning: calls made while tracing another function are not recorded (only eager calls count)."""
@tf.function
def inner(n):
    return tf.constant(n)

@tf.function
def outer1(n):
    return inner(n)

@tf.function
def outer2(n):
    return inner(n)

for n in range(1, 5):
    call(f"inner({n})", inner, n)
for n in range(5, 9):
    call(f"outer1({n})", outer1, n)
for n in range(9, 13):
    call(f"outer2({n})", outer2, n)
call("outer2(13)", outer2, 13)
count("inner count", inner)
