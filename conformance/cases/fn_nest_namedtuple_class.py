"""A namedtuple passed to a tf.function and returned from it is an instance of the caller's own
class, in the body and in the output (also nested in a dict); one trace per structure."""
import collections

P = collections.namedtuple("P", ["a", "b"])


@tf.function
def f(p):
    print("trace: is P inside", type(p) is P)
    return p, {"k": P(p.a + 1, p.b)}


out = call("namedtuple in and out", f, P(tf.constant(1), tf.constant(2)))
record("output class", (type(out[0]) is P, type(out[1]["k"]) is P, out[0]._fields))
call("again", f, P(tf.constant(3), tf.constant(4)))
count("count", f)
