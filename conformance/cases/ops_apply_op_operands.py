"""The one op call path (TF's generated wrappers, tf.raw_ops): a numpy array or scalar operand is
a host value (in a graph a Const named after the op's input, "Relu/features"; eagerly it takes
the dtype a tensor input fixed); an eager kernel error ends " name: <name>" only on TF's fast
path, which takes tensors, variables, ndarrays and Python numbers (a str, a list or a numpy
scalar operand takes eager_fallback: the error ends at "[Op:X]"); a name ending in "/" names
the op exactly; tf.raw_ops returns a tensor, a list for a list output, a namedtuple for
several outputs and None for none."""
import numpy as np


def nodes(cf):
    return [[n.name, n.op, [i for i in n.input if not i.startswith("^")]]
            for n in cf.graph.as_graph_def().node]


@tf.function
def numpy_operands(x):
    a = tf.nn.relu(np.array([1.0, -2.0], np.float32))
    b = tf.raw_ops.AddV2(x=x, y=np.array([1.5, 2.5]))  # float64 array to the float32 input
    c = tf.raw_ops.Mul(x=x, y=np.float32(3.0), name="triple")
    d = tf.raw_ops.ConcatV2(values=[x, np.array([7.0], np.float32)], axis=np.int32(0))
    return a, b, c, d


record("numpy operands graph", nodes(numpy_operands.get_concrete_function(
    tf.TensorSpec([2], tf.float32))))
call("numpy operands", numpy_operands, tf.constant([1.0, 2.0]))
call("eager numpy takes the tensor's dtype",
     lambda: tf.raw_ops.AddV2(x=np.array([1.5, 2.5]), y=tf.constant([1.0, 2.0])))
call("eager numpy scalar", lambda: tf.raw_ops.Mul(x=np.float64(2.0), y=tf.constant([1.0, 2.0])))


@tf.function
def graph_numpy_first(x):
    return tf.raw_ops.AddV2(x=np.array([1.5, 2.5]), y=x)


attempt("graph numpy fixes the dtype first",
        lambda: graph_numpy_first.get_concrete_function(tf.TensorSpec([2], tf.float32)))

s = tf.constant(["a", "b"])
t = tf.constant(["c", "d", "e"])
f = tf.constant([1.0, 2.0])
g = tf.constant([1.0, 2.0, 3.0])
attempt("str operand", lambda: tf.raw_ops.StringToNumber(string_tensor="abc", name="s2n"))
attempt("bytes operand", lambda: tf.raw_ops.StringToNumber(string_tensor=b"abc", name="s2n"))
attempt("tensor operand", lambda: tf.raw_ops.StringToNumber(string_tensor=tf.constant("abc"),
                                                            name="s2n"))
attempt("str in a list input", lambda: tf.raw_ops.StringJoin(inputs=[s, t, "x"], name="j"))
attempt("list in a list input", lambda: tf.raw_ops.StringJoin(inputs=[s, ["c", "d", "e"]],
                                                              name="j"))
attempt("ndarray in a list input",
        lambda: tf.raw_ops.StringJoin(inputs=[s, np.array(["c", "d", "e"])], name="j"))
attempt("tensors in a tuple input", lambda: tf.raw_ops.StringJoin(inputs=(s, t), name="j"))
attempt("float in a list input", lambda: tf.raw_ops.AddN(inputs=[f, g, 1.0], name="n"))
attempt("numpy scalar in a list input",
        lambda: tf.raw_ops.AddN(inputs=[f, g, np.float32(1.0)], name="n"))
attempt("ndarray operand", lambda: tf.raw_ops.AddV2(x=np.array([1.0, 2.0], np.float32), y=g,
                                                    name="a"))
attempt("tuple operand", lambda: tf.raw_ops.AddV2(x=(1.0, 2.0), y=g, name="a"))
attempt("numpy scalar operand",
        lambda: tf.raw_ops.Reshape(tensor=g, shape=np.int32(4), name="r"))
attempt("int operand", lambda: tf.raw_ops.Reshape(tensor=g, shape=4, name="r"))
attempt("variable operand", lambda: tf.raw_ops.AddV2(x=tf.Variable([1.0, 2.0]), y=g, name="a"))
attempt("strings.to_number", lambda: tf.strings.to_number("abc", name="num"))
attempt("strings.to_number tensor", lambda: tf.strings.to_number(tf.constant("abc"), name="num"))
attempt("strings.join", lambda: tf.strings.join([s, t], name="jj"))
attempt("strings.join host", lambda: tf.strings.join([s, ["c", "d", "e"]], name="jj"))
attempt("check_numerics", lambda: tf.debugging.check_numerics(tf.constant([np.nan]), "bad",
                                                               name="cn"))
attempt("ensure_shape", lambda: tf.ensure_shape(f, [3], name="es"))


@tf.function
def exact_names(x):
    y = tf.raw_ops.Identity(input=x, name="outer/")
    z = tf.raw_ops.Neg(x=y, name="inner/")
    return tf.raw_ops.AddV2(x=z, y=1.0, name="later/")


record("exact names graph", nodes(exact_names.get_concrete_function(
    tf.TensorSpec([], tf.float32))))


@tf.function
def results(x):
    parts = tf.raw_ops.Unpack(value=x, num=1)
    split = tf.raw_ops.SplitV(value=x, size_splits=[1], axis=0, num_split=1)
    top = tf.raw_ops.TopKV2(input=tf.concat([x, x + 1.0], 0), k=1)
    return parts, split, top.values, top.indices


call("results", results, tf.constant([3.0]))
record("result kinds", [type(tf.raw_ops.Unpack(value=tf.constant([3.0]), num=1)).__name__,
                        type(tf.raw_ops.TopKV2(input=tf.constant([1, 2]), k=1)).__name__,
                        tf.raw_ops.TopKV2(input=tf.constant([1, 2]), k=1)._fields,
                        repr(tf.raw_ops.NoOp())])
