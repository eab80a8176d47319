# expect: none
# tf: ok
# pattern: print in eager code
import tensorflow as tf

@tf.function
def f(x):
    return x + 1

for i in range(2):
    print(f(tf.constant(i)))
