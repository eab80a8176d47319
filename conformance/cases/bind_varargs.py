"""Binding: *args unrolled into positional parameters args_0..; a different arity is a new trace."""
@tf.function
def total(*args):
    print("trace arity", len(args))
    return sum(args[1:], args[0])

one = tf.constant(1)
call("(1,1)", total, one, one)
call("(1,1,1)", total, one, one, one)
call("(2,2)", total, tf.constant(2), tf.constant(2))
call("(1, python 5)", total, one, 5)
signatures("sigs", total)
