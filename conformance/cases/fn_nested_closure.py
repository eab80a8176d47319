"""Function layer: a tf.function defined inside another's trace, closing over a tensor of the outer graph: its trace captures the outer tensor, the call feeds it; a new inner Function each outer trace."""
from cases._fn_graph import record_graph


@tf.function
def outer(x):
    y = x * 2

    @tf.function
    def inner():
        return y + 1

    return inner()


call("outer(3)", outer, tf.constant(3))
call("outer(4)", outer, tf.constant(4))
count("outer count", outer)
record_graph(record, "outer", outer.get_concrete_function(tf.constant(3)))
