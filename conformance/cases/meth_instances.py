"""Methods: each instance gets its own Function (own cache and count); self is not in the key; M.f stays at 0."""
class M:
    def __init__(self, k):
        self.k = k

    @tf.function
    def f(self, x):
        print("trace k =", self.k)
        return x * self.k

m1, m2 = M(2), M(3)
t = tf.constant(2)
call("m1.f", m1.f, t)
call("m2.f", m2.f, t)
call("m1.f again", m1.f, t)
count("M.f (class level)", M.f)
record("m1.f is m1.f", m1.f is m1.f)
m1.k = 10
call("m1.f after k=10 (stale)", m1.f, t)
call("m1.f new shape", m1.f, tf.constant([1, 2]))
call("M.f(m1, t) via class", M.f, m1, t)
