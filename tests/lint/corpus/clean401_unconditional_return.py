# expect: none
# tf: ok
# pattern: an unconditional return in a TF loop works
import tensorflow as tf

@tf.function
def first(n):
    for i in tf.range(n):
        return i
    return tf.constant(-1)

first(tf.constant(5))
