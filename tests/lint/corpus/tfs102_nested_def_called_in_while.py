# expect: TFS102
# tf: retrace
# pattern: evaluate() defines its tf.function every call
import tensorflow as tf

def evaluate(v):
    @tf.function
    def inner(y):
        return tf.reduce_sum(y)
    return inner(v)

n = 0
while n < 3:
    evaluate(tf.ones([3]))
    n += 1
