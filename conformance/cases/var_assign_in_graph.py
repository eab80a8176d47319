"""Variables: assign/assign_add/assign_sub inside the graph run on every call; reads see the updates."""
v = tf.Variable(10)

@tf.function
def step(d):
    v.assign_add(d)
    v.assign_sub(1)
    return v.read_value()

call("step 5", step, tf.constant(5))
call("step 2", step, tf.constant(2))
record("v", v)
v.assign(0)
call("after eager assign(0)", step, tf.constant(1))
graph_ops("ops", step.get_concrete_function(tf.constant(1)))
describe("cf", step.get_concrete_function(tf.constant(1)))
