"""Variables: a later trace that creates a variable completes, then raises 'Creating variables on a non-first call'."""
holder = []

@tf.function
def g(x, make):
    print("trace make =", make)
    if make and not holder:
        holder.append(tf.Variable(2.0))
    if holder:
        return x * holder[0]
    return x

x = tf.constant(3.0)
call("g(x, False)", g, x, False)
call("g(x, True)", g, x, True)
call("g(x, False) again", g, x, False)
call("g(x, True) again", g, x, True)
