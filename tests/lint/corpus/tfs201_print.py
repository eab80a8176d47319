# expect: TFS201
# tf: ok
# pattern: guide: Executing Python side effects
import tensorflow as tf

@tf.function
def f(x):
    print("Traced with", x)
    return x + 1

f(tf.constant(1))
f(tf.constant(2))
