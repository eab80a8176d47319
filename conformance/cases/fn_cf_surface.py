"""The ConcreteFunction and FuncGraph surface as TF shows it: output_shapes and output_dtypes of
a nested output, graph.inputs / outputs / structured_input_signature / structured_outputs, and a
variable's ref() (hashable, deref() gives the variable back) and copy.deepcopy (a new variable
with the same name and value, apart from the original)."""
import copy


@tf.function
def f(x, y):
    return {"sum": x + y, "pair": (x * 2, tf.cast(y, tf.int32))}


cf = concrete("concrete", f, tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([3], tf.float32))
if cf is not None:
    record("output_shapes", repr(cf.output_shapes))
    record("output_dtypes", repr(cf.output_dtypes))
    g = cf.graph
    record("graph.inputs", [repr(t) for t in g.inputs])
    record("graph.outputs", [repr(t) for t in g.outputs])
    record("graph.structured_input_signature", repr(g.structured_input_signature))
    record("graph.structured_outputs", repr(g.structured_outputs))

v = tf.Variable([1.0, 2.0], name="w")
r = v.ref()
record("ref deref is the variable", r.deref() is v)
record("ref equal", r == v.ref())
record("ref hash equal", hash(r) == hash(v.ref()))
record("ref in set", len({v.ref(), v.ref(), tf.Variable(1.0).ref()}))
w = copy.deepcopy(v)
record("deepcopy repr", repr(w))
record("deepcopy is apart", w is not v)
v.assign([5.0, 6.0])
record("deepcopy keeps its value", w.numpy())
record("deepcopy name", w.name)
