"""Function layer: one tf.function calling another with a tensor: a PartitionedCall in the outer graph, the inner function in its library; both trace counts; the inner function keeps its own cache (an eager call with the same type hits)."""
from cases._fn_graph import record_graph


@tf.function
def inner(x):
    print("trace inner", x.shape)
    return x * 2


@tf.function
def outer(x):
    print("trace outer", x.shape)
    return inner(x) + 1


call("outer([1, 2])", outer, tf.constant([1, 2]))
count("inner count", inner)
count("outer count", outer)
call("outer([3, 4])", outer, tf.constant([3, 4]))
call("inner([5, 6]) eagerly", inner, tf.constant([5, 6]))
count("inner count after eager call", inner)
call("outer([1, 2, 3])", outer, tf.constant([1, 2, 3]))
count("inner count after outer retrace", inner)
count("outer count after retrace", outer)
record_graph(record, "outer", outer.get_concrete_function(tf.constant([1, 2])))
