"""tf.errors exports what TF's does: the OpError classes and the status codes, not
InaccessibleTensorError; an OpError is made as TF makes one (node_def, op, message) and carries
its code."""
record("public names", sorted(n for n in dir(tf.errors) if not n.startswith("_")))
record("codes", [tf.errors.OK, tf.errors.CANCELLED, tf.errors.INVALID_ARGUMENT,
                 tf.errors.NOT_FOUND, tf.errors.OUT_OF_RANGE, tf.errors.UNAUTHENTICATED])
e = tf.errors.InvalidArgumentError(None, None, "bad thing")
record("made by hand", (str(e), e.message, e.error_code, e.node_def, e.op))
record("subclasses", [issubclass(c, tf.errors.OpError) for c in
                      (tf.errors.CancelledError, tf.errors.UnavailableError,
                       tf.errors.DeadlineExceededError, tf.errors.UnauthenticatedError)])
try:
    tf.constant([1, 2]) + tf.constant([1, 2, 3])
except tf.errors.InvalidArgumentError as err:
    record("raised by an op", (type(err).__name__, err.error_code))
