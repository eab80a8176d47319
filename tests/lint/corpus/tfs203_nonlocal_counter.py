# expect: TFS203
# tf: ok
# pattern: a closure counter bumped inside tf.function
import tensorflow as tf

def make():
    count = 0

    @tf.function
    def f(x):
        nonlocal count
        count = count + 1
        return x * 2
    return f

make()(tf.constant(1))
