"""A dtype an op's OpDef does not allow, as TF 2.21 reports it: eagerly InvalidArgumentError
"Value for attr 'T' of int32 is not in the list of allowed values: ..." ending with the OpDef's
summary (not NotFoundError "Could not find device", which TF keeps for a dtype its OpDef allows
but no kernel takes), and while tracing op_def_library's TypeError with TF's allowed list in
Python's names."""

ops = {
    "sqrt int32": lambda: tf.math.sqrt(tf.constant([1, 2])),
    "exp int32": lambda: tf.math.exp(tf.constant([1, 2])),
    "floor int32": lambda: tf.math.floor(tf.constant([1, 2])),
    "sigmoid int32": lambda: tf.math.sigmoid(tf.constant([1, 2])),
    "add bool": lambda: tf.math.add(tf.constant([True]), tf.constant([True])),
    "multiply bool": lambda: tf.math.multiply(tf.constant([True]), tf.constant([True])),
    "matmul bool": lambda: tf.linalg.matmul(tf.constant([[True]]), tf.constant([[True]])),
    "relu string": lambda: tf.nn.relu(tf.constant(["a"])),
    "reduce_sum string": lambda: tf.reduce_sum(tf.constant(["a"])),
    "reduce_max complex64": lambda: tf.reduce_max(tf.constant([1 + 1j], tf.complex64)),
    "cumsum string": lambda: tf.math.cumsum(tf.constant(["a"])),
    "less complex64": lambda: tf.math.less(tf.constant([1 + 1j], tf.complex64),
                                           tf.constant([1 + 1j], tf.complex64)),
    "abs uint8": lambda: tf.math.abs(tf.constant([1], tf.uint8)),
}

for label, fn in ops.items():
    call(label + " eagerly", fn)
    traced = tf.function(fn, autograph=False)  # (AutoGraph cannot convert these lambdas)
    call(label + " traced", lambda: traced.get_concrete_function())
    call(label + " in a call", tf.function(fn, autograph=False))
