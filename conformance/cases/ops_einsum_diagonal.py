"""Ops: tf.einsum with a label repeated in one operand (the operand's diagonal, as TF's Einsum
kernel takes it): a matrix diagonal, a batch Jacobian's diagonal blocks ('bxby->bxy', as TF's
autodiff guide writes it), a diagonal multiplied into another operand, integer operands, in a
tf.function, and TF's error for mismatched sizes of a repeated label."""
m = tf.reshape(tf.range(16.0), [4, 4])
record("diag", tf.einsum("ii->i", m))
j = tf.reshape(tf.range(2 * 3 * 2 * 5, dtype=tf.float32), [2, 3, 2, 5])
record("batch jacobian", tf.einsum("bxby->bxy", j))
record("transposed diagonal", tf.einsum("ijik->kji", tf.reshape(tf.range(2 * 3 * 2 * 4.0), [2, 3, 2, 4])))
v = tf.constant([1.0, -2.0, 0.5, 3.0])
record("diag times vector", tf.einsum("ii,i->i", m, v))
record("diag contracted", tf.einsum("ii,ij->j", m, m))
record("int", tf.einsum("iij->ij", tf.reshape(tf.range(18), [3, 3, 2])))
call("sizes differ", lambda: tf.einsum("ii->i", tf.zeros([2, 3], tf.int32)))  # int32: no oneDNN rewrite


@tf.function
def blocks(t):
    return tf.einsum("bxby->bxy", t)


call("in a function", blocks, j)
graph_ops("ops", blocks.get_concrete_function(j))
