"""Nests: returned tuples/lists/dicts keep their structure; structured_outputs reflects it."""
@tf.function
def f(x):
    return {"sum": tf.reduce_sum(x), "pair": (x, [x * 2, None]), "n": 3}

x = tf.constant([1, 2, 3])
call("call", f, x)
cf = f.get_concrete_function(x)
describe("cf", cf)
