"""Warning: two tf.functions made by one def (the same code object) share one detector and its limit of two warnings: f1 traces 3 times, f2 twice -> a warning on f2's 2nd call naming f2; more traces of f1 -> one more warning, then none."""
def make():
    @tf.function
    def f(n):
        return tf.constant(n)
    return f


f1, f2 = make(), make()
for n in range(3):
    call(f"f1({n})", f1, n)
for n in range(2):
    call(f"f2({n})", f2, n)
for n in range(3, 8):
    call(f"f1({n})", f1, n)
count("f1 count", f1)
count("f2 count", f2)
