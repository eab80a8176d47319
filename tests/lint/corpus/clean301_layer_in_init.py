# expect: none
# tf: ok
# pattern: the layer is built in __init__
import tensorflow as tf

import keras

class Net(tf.Module):
    def __init__(self):
        self.dense = keras.layers.Dense(2)

    @tf.function
    def __call__(self, x):
        return self.dense(x)

Net()(tf.ones([1, 3]))
