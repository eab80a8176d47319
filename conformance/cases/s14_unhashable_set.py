"""S14: k({1,2}) -> TypeError 'Could not generate a generic TraceType ...', 0 traces."""
@tf.function
def k(arg):
    print("trace", arg)
    return tf.constant(0)

call("set", k, {1, 2})
call("set in list", k, [{3}])
call("ok after", k, 1)
