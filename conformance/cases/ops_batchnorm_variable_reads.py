"""tf.nn.batch_normalization with variables as offset and scale (a layer norm's beta and gamma, as
BERT's modeling.py passes them): `inv *= scale` reads gamma inside the Mul's scope
(`batchnorm/mul/ReadVariableOp`), while `offset - mean * inv` reads beta by the variable's own
__sub__ after the product, outside the Sub's scope (`batchnorm/ReadVariableOp`). TF's TFLite
converter names the constants after these reads. Control inputs are left out (TF_FACTS 19.5)."""
beta = tf.Variable([0.5, -0.25, 1.0])
gamma = tf.Variable([2.0, 1.0, 0.5])


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def f(x):
    mean, variance = tf.nn.moments(x, axes=[-1], keepdims=True)
    return tf.nn.batch_normalization(x, mean, variance, offset=beta, scale=gamma,
                                     variance_epsilon=1e-3)


cf = f.get_concrete_function()
record("nodes", [(n.name, n.op, [i for i in n.input if not i.startswith("^")])
                 for n in cf.graph.as_graph_def().node])
call("call", f, tf.constant([[1.0, 2.0, 4.0], [0.0, -1.0, 3.0]]))
