# expect: TFS106
# tf: retrace
# pattern: a build_model() helper called per trial
import numpy as np
import keras
import tensorflow as tf

def build_model():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.compile(loss="mse")
    return model

x = np.ones((2, 3), np.float32)
for trial in range(3):
    m = build_model()
    m.predict(x, verbose=0)
