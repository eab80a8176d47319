# expect: none
# tf: no-retrace
# pattern: models built in a loop but only inspected
import numpy as np
import keras
import tensorflow as tf

sizes = []
for i in range(3):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    sizes.append(model.count_params())
