# expect: none
# tf: ok
# pattern: appending results in eager code
import tensorflow as tf

results = []

@tf.function
def f(x):
    return x * 2

for i in range(3):
    results.append(f(tf.constant(i)))
