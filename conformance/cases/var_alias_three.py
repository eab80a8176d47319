"""Variables: alias patterns over three arguments (x,y,z)->1, (x,x,z)->2, (y,y,z)->2, (z,y,y)->3; (z,y,x)->hit."""
x = tf.Variable(1.0)
y = tf.Variable(2.0)
z = tf.Variable(3.0)

@tf.function
def f(a, b, c):
    print("trace")
    return a + b * 10 + c * 100

call("(x,y,z)", f, x, y, z)
call("(z,y,x)", f, z, y, x)
call("(x,x,z)", f, x, x, z)
call("(y,y,z)", f, y, y, z)
call("(z,y,y)", f, z, y, y)
signatures("sigs", f)
