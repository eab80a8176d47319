"""Binding: casting to a namedtuple in an input_signature or a ConcreteFunction's structure. TF
casts any namedtuple with the same fields (another type name too); anything else is
"Cannot cast X to type <class '...P'>." or "... has different attributes with the TraceType"."""
import collections

P = collections.namedtuple("P", ["x", "y"])
Q = collections.namedtuple("Q", ["x", "y"])
R = collections.namedtuple("P", ["x", "z"])
sp = tf.TensorSpec([], tf.float32)


@tf.function(input_signature=[P(sp, sp)])
def h(p):
    print("trace h", type(p).__name__)
    return p.x + p.y * 10


one, two = tf.constant(1.0), tf.constant(2.0)
call("P", h, P(one, two))
call("Q same fields", h, Q(one, two))
call("numbers", h, P(1.0, 2.0))
call("plain tuple", h, (one, two))
call("list", h, [one, two])
call("short tuple", h, (one,))
call("tensor", h, one)
call("dict", h, {"x": one, "y": two})
call("None", h, None)
call("other fields", h, R(one, two))
count("count h", h)


class Outer:
    N = collections.namedtuple("N", ["a"])


@tf.function(input_signature=[Outer.N(sp)])
def k(n):
    return n.a


call("class inside a class", k, (one,))


@tf.function
def m(p):
    return p.x - p.y


cf = m.get_concrete_function(P(one, two))
call("cf P", cf, P(two, one))
call("cf Q", cf, Q(two, one))
call("cf plain tuple", cf, (one, two))
call("cf other fields", cf, R(one, two))
