"""Seed 000 Q2: a Python counter increments once (at trace); a tf.Variable.assign_add runs every call."""
py_counter = 0
v_counter = tf.Variable(0)

@tf.function
def step(x):
    global py_counter
    py_counter += 1
    v_counter.assign_add(1)
    return x * 2

for i in range(4):
    call(f"step {i}", step, tf.constant(float(i)))
record("py_counter", py_counter)
record("v_counter", v_counter.numpy())
graph_ops("step ops", step.get_concrete_function(tf.constant(0.0)))
