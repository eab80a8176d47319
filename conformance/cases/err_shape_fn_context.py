"""Errors: a shape function's error as TF reports it while the graph is built: the node, its input shapes, and the constant inputs the shape function read (values as "<...>", shape tensors as partial shapes "[?,5]"); errors found before any value is read list none; tf.stack checks its axis in Python first."""
cases = {
    "expand_dims": lambda x: tf.expand_dims(x, 5),
    "concat": lambda x: tf.concat([x, x], 3),
    "transpose": lambda x: tf.transpose(x, [0, 2]),
    "reduce": lambda x: tf.reduce_sum(x, 4),
    "reduce_list": lambda x: tf.reduce_sum(x, [0, 4]),
    "fill": lambda x: tf.fill([2, -3], 1.0),
    "reshape": lambda x: tf.reshape(x, [7]),
    "reshape_partial": lambda x: tf.reshape(x, [-1, 5]),
    "tile": lambda x: tf.tile(x, [1, 2, 3]),
    "argmax": lambda x: tf.argmax(x, 3),
    "gather": lambda x: tf.gather(x, [0], axis=3),
    "stack_axis": lambda x: tf.stack([x, x], axis=4),
    "broadcast_to": lambda x: tf.broadcast_to(x, [3, 3]),
    "random": lambda x: tf.random.uniform([2, -2]),
    "strided": lambda x: x[5],
}
for name, fn in cases.items():
    f = tf.function(fn, autograph=False)
    attempt(name, lambda f=f: f.get_concrete_function(tf.TensorSpec([2, 3], tf.float32)))
attempt("stack_axis eager", lambda: tf.stack([tf.constant([1.0]), tf.constant([2.0])], axis=-3))
