"""Warning: two different functions with the same name (different bodies) do not share a detector; hits count in the window: a(1..4), b(1..4), a(4) hits, a(5) -> a's 5th trace in its last 6 calls warns."""
def make_a():
    @tf.function
    def f(n):
        return tf.constant(n) + 1
    return f


def make_b():
    @tf.function
    def f(n):
        return tf.constant(n) * 2
    return f


a, b = make_a(), make_b()
for n in range(1, 5):
    call(f"a({n})", a, n)
for n in range(1, 5):
    call(f"b({n})", b, n)
call("a(4) again", a, 4)
call("a(5)", a, 5)
