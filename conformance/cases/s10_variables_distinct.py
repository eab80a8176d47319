"""S10: g(v1); g(v2) with two distinct same-spec variables -> 1 trace; the variable is an input, not a capture."""
v1 = tf.Variable(tf.zeros([3]))
v2 = tf.Variable(tf.ones([3]))

@tf.function
def g(v):
    print("trace g")
    return v.read_value() + 1.0

call("g(v1)", g, v1)
call("g(v2)", g, v2)
cf = g.get_concrete_function(v1)
describe("cf(v1)", cf)
