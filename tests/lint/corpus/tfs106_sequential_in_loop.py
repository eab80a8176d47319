# expect: TFS106
# tf: retrace
# pattern: issue #42441: predict on a model rebuilt per iteration
import numpy as np
import keras
import tensorflow as tf

x = np.ones((2, 3), np.float32)
for i in range(3):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.predict(x, verbose=0)
