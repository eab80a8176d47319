# expect: TFS104
# tf: retrace
# pattern: an object built in the loop and passed
import tensorflow as tf

class Params:
    def __init__(self):
        self.bias = 1.0

@tf.function
def f(x, p):
    return x + p.bias

x = tf.constant(1.0)
for i in range(3):
    p = Params()
    f(x, p)
