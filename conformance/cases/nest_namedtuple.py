"""Nests: namedtuples match by type name + field names; two classes with the same name/fields are interchangeable."""
import collections

P1 = collections.namedtuple("Point", ["x", "y"])
P2 = collections.namedtuple("Point", ["x", "y"])
Q = collections.namedtuple("Other", ["x", "y"])

@tf.function
def f(p):
    print("trace", type(p).__name__, p.x.shape)
    return p.x + p.y

t1 = tf.constant([1.0])
call("P1", f, P1(t1, t1))
call("P2 same name", f, P2(t1, t1))
call("Q other name", f, Q(t1, t1))
call("plain tuple", f, (t1, t1))
call("P1 shape (2,)", f, P1(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])))
def swap(p):
    return P1(p.y, p.x)

r = call("returns namedtuple", tf.function(swap), P1(t1, tf.constant([2.0])))
record("returned type name", type(r).__name__)
signatures("sigs", f)
