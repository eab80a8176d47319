"""ReadVariableOp with a dtype attr that is not the variable's: TF 2.21's eager kernel error names
the attr's dtype as expected and the variable's as got; a right read inside a tf.function (a plan's
prepared kernel) still reads the current value after an assign."""
v = tf.Variable([1.0, 2.0])
call("eager read as int32", lambda: tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.int32))
call("eager read as float32", lambda: tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.float32))


@tf.function
def doubled():
    return tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.float32) * 2


call("doubled()", doubled)
v.assign([3.0, -1.0])
call("doubled() after assign", doubled)
