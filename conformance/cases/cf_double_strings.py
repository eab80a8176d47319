"""ConcreteFunction (guide): a string cf called with an int tensor fails at run time (InvalidArgumentError)."""
@tf.function
def double(a):
    return a + a

double_strings = concrete("double_strings", double, tf.TensorSpec(shape=None, dtype=tf.string))
call("strings", double_strings, tf.constant("a"))
call("vector of strings", double_strings, tf.constant(["a", "b"]))
call("int tensor", double_strings, tf.constant(1))
describe("double_strings", double_strings)
