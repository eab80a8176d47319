"""Ops: tf.matmul values (2-D, batched, transposes) and the MatMul/BatchMatMulV2 op types in graphs."""
# conformance: live-only: TF's eager shape error names the kernel it runs, _MklMatMul with oneDNN and MatMul without
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.constant([[5.0], [6.0]])
record("a@b", tf.matmul(a, b))
record("operator @", a @ b)
record("transpose_a", tf.matmul(a, a, transpose_a=True))
record("transpose_b", tf.matmul(a, a, transpose_b=True))
record("int matmul", tf.matmul(tf.constant([[1, 2]]), tf.constant([[3], [4]])))
record("batched", tf.matmul(tf.ones([2, 2, 3]), tf.ones([2, 3, 1])))
attempt("shape mismatch", lambda: tf.matmul(a, tf.ones([3, 1])))

@tf.function
def mm(x, y):
    return tf.matmul(x, y), x @ y

call("graph", mm, a, b)
graph_ops("ops 2-D", mm.get_concrete_function(a, b))
graph_ops("ops batched", mm.get_concrete_function(tf.ones([2, 2, 3]), tf.ones([2, 3, 1])))
call("graph shape mismatch", mm, a, tf.ones([3, 1]))
