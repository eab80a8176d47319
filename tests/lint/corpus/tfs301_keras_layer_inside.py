# expect: TFS301
# tf: error:ValueError
# pattern: a Keras layer built inside tf.function
import tensorflow as tf

import keras

@tf.function
def f(x):
    return keras.layers.Dense(2)(x)

f(tf.ones([1, 3]))
