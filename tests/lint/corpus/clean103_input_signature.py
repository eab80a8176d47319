# expect: none
# tf: no-retrace
# pattern: an input_signature converts Python ints to tensors
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def f(n):
    return n * 2

for i in range(4):
    f(i)
