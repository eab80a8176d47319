"""S12: k({'a':1,'b':2}); k({'b':2,'a':1}) -> 1 trace (dict key order irrelevant)."""
@tf.function
def k(arg):
    print("trace", arg)
    return tf.constant(0)

call("ab", k, {"a": 1, "b": 2})
call("ba", k, {"b": 2, "a": 1})
call("other keys", k, {"a": 1, "c": 2})
call("other value", k, {"a": 1, "b": 3})
signatures("sigs", k)
