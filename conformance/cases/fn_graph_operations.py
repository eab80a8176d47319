"""The graph's operations as users inspect them: `graph.get_operations()` (tf.Operation objects:
name, type, inputs, outputs, control inputs, get_attr), `get_operation_by_name`,
`get_tensor_by_name` with TF's errors, `Tensor.op`, `tf.as_dtype` of a DataType enum; and the
automatic control dependencies on variables: a read waits for the last write, a write for the
last write and every read since; reads are not ordered among themselves."""

v = tf.Variable(1.0)
w = tf.Variable(1.0)


@tf.function
def step(x):
    a = v + x
    b = v * x
    v.assign_add(1.0)
    c = v + 1.0
    d = v * 2.0
    v.assign(x)
    v.assign(2.0)
    e = v + w
    w.assign(e)
    tf.print(a)
    return tf.reshape(a + b + c + d + e, [1, 1])


cf = step.get_concrete_function(tf.constant(1.0))
g = cf.graph


def view(op):
    # TF's control inputs come from a set: compare them sorted.
    return (op.name, op.type, [t.name for t in op.inputs], [t.name for t in op.outputs],
            sorted(c.name for c in op.control_inputs))


record("operations", [view(op) for op in g.get_operations()])
add = g.get_operation_by_name("add")
record("get_attr T", repr(add.get_attr("T")))
record("repr", repr(add))
record("get_attr shape", str(g.get_operation_by_name("x").get_attr("shape")))
record("get_attr dtype", repr(g.get_operation_by_name("x").get_attr("dtype")))
record("Tensor.op", view(g.get_tensor_by_name("add:0").op))
record("input's op", add.inputs[0].op.type)
record("values", [t.name for t in add.values()])
record("node_def", str(add.node_def))
# NodeDef.input: data inputs in order ("x", "split:1"), then "^control" ones (compared sorted).
record("node_def inputs", [([i for i in op.node_def.input if not i.startswith("^")],
                            sorted(i for i in op.node_def.input if i.startswith("^")))
                           for op in g.get_operations()])
attempt("get_attr of a missing attr", lambda: add.get_attr("foo"))
attempt("unknown operation", lambda: g.get_operation_by_name("nope"))
attempt("tensor name without index", lambda: g.get_tensor_by_name("add"))
attempt("tensor index out of range", lambda: g.get_tensor_by_name("add:3"))
attempt("tensor of an unknown operation", lambda: g.get_tensor_by_name("nope:0"))
record("as_dtype of enums", [repr(tf.as_dtype(1)), repr(tf.as_dtype(3)), repr(tf.as_dtype(7))])
attempt("as_dtype of a bad enum", lambda: tf.as_dtype(1000))
call("value", step, tf.constant(1.0))
