"""A namedtuple in an input_signature: Python numbers in the namedtuple are cast to its specs
(ints to float32 too), tensors fit; one trace for all."""
import collections

P = collections.namedtuple("P", ["a", "b"])


@tf.function(input_signature=[P(tf.TensorSpec([], tf.float32), tf.TensorSpec([2], tf.float32))])
def nt(p):
    return p.a + p.b, type(p).__name__, p._fields


call("floats", nt, P(1.0, [2.0, 3.0]))
call("ints", nt, P(1, [2, 3]))
call("tensors", nt, P(tf.constant(1.0), tf.constant([2.0, 3.0])))
call("a string", nt, P("x", [2.0, 3.0]))
signatures("sigs", nt)
count("count", nt)
