"""Literals: complex numbers and big ints are hashable literals; 2**40 and 2**40+1 differ."""
@tf.function
def f(v):
    print("trace", v)
    return tf.constant(1)

call("1j", f, 1j)
call("1j again", f, complex(0, 1))
call("2**40", f, 2 ** 40)
call("2**40+1", f, 2 ** 40 + 1)
call("2**40 again", f, 2 ** 40)
