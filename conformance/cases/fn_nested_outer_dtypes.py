"""Function layer: an outer function traced for int32 and then float32 tensors: the inner function traces once per dtype, each outer trace's library holds only its own inner trace."""
from cases._fn_graph import library


@tf.function
def inner(x):
    print("trace inner", x.dtype.name)
    return x * 3


@tf.function
def outer(x):
    return inner(x) - x


call("outer(int32)", outer, tf.constant(2))
call("outer(float32)", outer, tf.constant(2.5))
call("outer(int32) hit", outer, tf.constant(7))
count("inner count", inner)
count("outer count", outer)
record("int32 library", library(outer.get_concrete_function(tf.constant(1))))
record("float32 library", library(outer.get_concrete_function(tf.constant(1.0))))
