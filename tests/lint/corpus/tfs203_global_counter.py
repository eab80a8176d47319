# expect: TFS203
# tf: ok
# pattern: a global call counter bumped inside tf.function
import tensorflow as tf

calls = 0

@tf.function
def f(x):
    global calls
    calls += 1
    return x + 1

f(tf.constant(1))
f(tf.constant(2))
