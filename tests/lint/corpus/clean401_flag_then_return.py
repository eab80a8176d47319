# expect: none
# tf: ok
# pattern: break with the condition, return after the loop
import tensorflow as tf

@tf.function
def first_big(n):
    found = tf.constant(-1)
    for i in tf.range(n):
        if i > 2:
            found = i
            break
    return found

first_big(tf.constant(5))
