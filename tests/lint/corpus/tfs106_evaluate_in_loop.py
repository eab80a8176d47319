# expect: TFS106
# tf: retrace
# pattern: evaluate on a fresh model each iteration
import numpy as np
import keras
import tensorflow as tf

x = np.ones((2, 3), np.float32)
y = np.ones((2, 2), np.float32)
for i in range(3):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.compile(loss="mse")
    model.evaluate(x, y, verbose=0)
