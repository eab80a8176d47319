# expect: TFS106
# tf: retrace
# pattern: a functional model built per fold
import numpy as np
import keras
import tensorflow as tf

x = np.ones((2, 3), np.float32)
for fold in range(3):
    inputs = keras.Input((3,))
    outputs = keras.layers.Dense(1)(inputs)
    model = keras.Model(inputs, outputs)
    model.predict(x, verbose=0)
