"""The FuncGraph surface users reach for, as TF shows it: Tensor.op (name, type, inputs, outputs,
node_def printed as TF's text proto), cf.variables / trainable_variables and graph.variables (the
user's Variable objects), graph.captures (external value, internal placeholder),
cf.function_type.parameters, cf.inference_fn, and print(graph.as_graph_def()) of a graph with
variable reads, a captured eager constant, literals of several dtypes and a nested function in its
library (TF's uids in function names dropped)."""
import re

_UID = re.compile(r"(__inference_\w+?)_\d+\b")


def norm(s):
    return _UID.sub(r"\1_<uid>", s)


v = tf.Variable(2.0, name="v")
w = tf.Variable(3.0, name="w", trainable=False)
c = tf.constant([1.0, 2.0])


@tf.function
def inner(x):
    return x * 2.5


@tf.function
def f(x, y=1):
    return {"a": x * v + w, "b": inner(x) + c, "s": tf.constant([1, 2, 3], tf.int64),
            "t": tf.constant(True), "e": tf.constant(1e-7), "d": tf.constant(0.1, tf.float64),
            "r": tf.reshape(x, [-1, 1])}


cf = concrete("concrete", f, tf.TensorSpec([2], tf.float32, name="x"))
if cf is not None:
    out = cf.outputs[0]
    op = out.op
    record("op.name", op.name)
    record("op.type", op.type)
    record("op.inputs", [t.name for t in op.inputs])
    record("op.outputs", [t.name for t in op.outputs])
    record("op repr", repr(op))
    record("op.node_def", str(op.node_def))
    inner_op = out.op.inputs[0].op
    record("input op", [inner_op.name, inner_op.type, [t.name for t in inner_op.inputs]])
    record("input op node_def", str(inner_op.node_def))
    record("cf.variables", [x.name for x in cf.variables])
    record("cf.variables are the user's", [x is y for x, y in zip(cf.variables, (v, w))])
    record("cf.trainable_variables", [x.name for x in cf.trainable_variables])
    g = cf.graph
    record("graph.variables", [x.name for x in g.variables])
    record("graph.captures internal", [t.name for _, t in g.captures])
    record("graph.captures external dtypes", [repr(e.dtype) for e, _ in g.captures])
    record("graph.captures external constant", [e.numpy().tolist() for e, _ in g.captures
                                                if e.dtype == tf.float32])
    record("graph.inputs", [t.name for t in g.inputs])
    record("graph.outputs", [t.name for t in g.outputs])
    record("graph.structured_input_signature", repr(g.structured_input_signature))
    record("function_type.parameters", [(k, repr(p)) for k, p in cf.function_type.parameters.items()])
    record("parameter kinds", [str(p.kind) for p in cf.function_type.parameters.values()])
    record("str(inference_fn)", norm(str(cf.inference_fn)))
    record("inference_fn.name", norm(cf.inference_fn.name.decode()))
    record("as_graph_def", norm(str(g.as_graph_def())))
    attempt("Tensor.op eagerly", lambda: tf.constant(1.0).op)
