"""Captures: free variables of a closure are read at trace time; a new closure object is a new Function."""
def make(scale):
    @tf.function
    def f(x):
        print("trace scale", scale)
        return x * scale
    return f

f2 = make(2)
f3 = make(3)
x = tf.constant(1.5)
call("f2", f2, x)
call("f3", f3, x)
call("f2 again", f2, x)

offset = 1.0
def outer():
    @tf.function
    def g(x):
        return x + offset
    return g
g = outer()
call("g", g, x)
offset = 10.0
call("g after offset=10", g, x)
