"""Nests: [[a], b, c] vs [[a, b], c] are different structures (testCacheKeyNestedLists)."""
@tf.function
def f(xs):
    print("trace", len(xs))
    return tf.constant(0)

a, b, c = tf.constant(1), tf.constant(2), tf.constant(3)
call("[[a], b, c]", f, [[a], b, c])
call("[[a, b], c]", f, [[a, b], c])
call("[[b], c, a]", f, [[b], c, a])
call("[[a], b]", f, [[a], b])
