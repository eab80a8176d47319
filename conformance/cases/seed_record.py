"""Seed 003 Q3: list.append and print at trace time only; tf.print every call; a new signature traces again."""
events = []

@tf.function
def record_(x):
    events.append("called")  # Python list mutation during tracing
    print("tracing")          # Python print during tracing
    tf.print("executing", x)  # TensorFlow operation in graph
    return x + 1

call("1", record_, tf.constant(1))
call("2", record_, tf.constant(2))
call("3", record_, tf.constant(3))
record("len(events) after 3 compatible calls", len(events))
call("float", record_, tf.constant(1.5))
call("vector", record_, tf.constant([1, 2]))
record("len(events) after 2 new signatures", len(events))
record("events", events)
graph_ops("record_ ops", record_.get_concrete_function(tf.constant(1)))
