# expect: none
# tf: no-retrace
# pattern: predict_on_batch on a model built once
import numpy as np
import keras
import tensorflow as tf

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
x = np.ones((2, 3), np.float32)
for i in range(3):
    model.predict_on_batch(x)
