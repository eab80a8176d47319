"""Captures: a closed-over variable is a resource Placeholder read at run time; assign is seen; rebinding is not."""
v = tf.Variable(1.0)

@tf.function
def variable_add():
    return 1.0 + v

call("first", variable_add)
v.assign(100.0)
call("after assign(100)", variable_add)
v = tf.Variable(5.0)
call("after rebinding v", variable_add)
describe("cf", variable_add.get_concrete_function())
