"""S10': h(v1,v2); h(v2,v1); h(v1,v1); h(v2,v2) -> 2 traces (alias patterns (0,1) and (0,0))."""
v1 = tf.Variable(tf.zeros([3]))
v2 = tf.Variable(tf.ones([3]))

@tf.function
def h(p, q):
    print("trace h")
    return p + q

call("h(v1,v2)", h, v1, v2)
call("h(v2,v1)", h, v2, v1)
call("h(v1,v1)", h, v1, v1)
call("h(v2,v2)", h, v2, v2)
signatures("sigs", h)
