"""*args with an input_signature (tf.data's map wrappers use it): the signature's constraints
become positional-only parameters args_0, args_1, ...; one trace serves every call that fits."""
def double_first(*args):
    return args[0] * 2


f = tf.function(double_first, input_signature=[tf.TensorSpec([None], tf.int32)])
call("two elements", f, tf.constant([1, 2]))
call("three elements", f, tf.constant([1, 2, 3]))
call("a Python list", f, [4, 5])
call("two arguments", f, tf.constant([1]), tf.constant([2]))
call("no argument", f)
call("by keyword", f, args_0=tf.constant([1]))
cf = f.get_concrete_function()
record("concrete function", str(cf))
record("structured_input_signature", repr(cf.structured_input_signature))
call("concrete call", cf, tf.constant([4]))
signatures("sigs", f)
count("count", f)
