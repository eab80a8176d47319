"""Warning: two defs of the same name and body at different lines have a detector each (TF keys it by the code object, whose equality includes the line): a(1..4) then b(1..5) -> one warning, from b on its 5th call."""
def make_a():
    @tf.function
    def f(n):
        return tf.constant(n)
    return f


def make_b():
    @tf.function
    def f(n):
        return tf.constant(n)
    return f


a, b = make_a(), make_b()
for n in range(1, 5):
    call(f"a({n})", a, n)
for n in range(1, 6):
    call(f"b({n})", b, n)
