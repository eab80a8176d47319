"""Objects: distinct live objects match when they are == with equal hashes; equal hash with default __eq__ does not."""
class Key:
    def __init__(self, k):
        self.k = k
    def __eq__(self, other):
        return isinstance(other, Key) and self.k == other.k
    def __hash__(self):
        return hash(self.k)

class Collide:
    def __hash__(self):
        return 7

@tf.function
def f(o):
    print("trace", type(o).__name__)
    return tf.constant(1)

k1, k2, k3 = Key(1), Key(1), Key(2)
call("Key(1)", f, k1)
call("another Key(1)", f, k2)
call("Key(2)", f, k3)
c1, c2 = Collide(), Collide()
call("Collide 1", f, c1)
call("Collide 2 (same hash, not equal)", f, c2)
