# expect: none
# tf: no-retrace
# pattern: calling a new model eagerly does not trace (TF 2.21 + Keras 3)
import numpy as np
import keras
import tensorflow as tf

x = np.ones((2, 3), np.float32)
for i in range(3):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model(x)
