# expect: TFS202
# tf: error:ValueError
# pattern: mutating a list argument (TF: should not modify its Python input arguments)
import tensorflow as tf

@tf.function
def f(x, acc):
    acc.append(x)
    return x

f(tf.constant(1), [])
