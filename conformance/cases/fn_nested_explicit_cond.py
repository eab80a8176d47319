"""Function layer: tf.cond with a different tf.function in each branch (no AutoGraph): each branch graph holds its own call node and both callees are traced once; the outer graph's library holds the branches and both callees."""
from cases._fn_graph import record_graph


@tf.function
def up(x):
    print("trace up")
    return x + 1


@tf.function
def down(x):
    print("trace down")
    return x - 1


@tf.function(autograph=False)
def step(x):
    return tf.cond(x > 0, lambda: up(x), lambda: down(x))


call("step(3)", step, tf.constant(3))
call("step(-3)", step, tf.constant(-3))
count("up count", up)
count("down count", down)
count("step count", step)
record_graph(record, "step", step.get_concrete_function(tf.constant(1)))
