# Watched under real TF by test_watch.py: Keras predict in a loop, a model built in a loop,
# model.fit with a changing batch size, a tf.data map function and a restored SavedModel
# function. led(f) records TF's own trace count of the Function after each call.
import itertools
import json
import os
import sys

import numpy as np
import tensorflow as tf
import keras

LEDGER = []
_KEYS = itertools.count()


def led(f):
    # A serial number per Function object, not id(f): a freed Function's id can be reused by the
    # next one (a tf.function made in a loop), which would merge their counts.
    if "_led_key" not in f.__dict__:
        f.__dict__["_led_key"] = next(_KEYS)
    key = f.__dict__["_led_key"]
    LEDGER.append([type(f).__name__, key, f.experimental_get_tracing_count()])


keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
model.compile(optimizer="sgd", loss="mse")
for n in (8, 8, 5):
    model.predict(np.ones((n, 4), np.float32), batch_size=4, verbose=0)  # predict loop
predict_fn = model.predict_function

x = np.ones((12, 4), np.float32)
y = np.ones((12, 3), np.float32)
model.fit(x, y, batch_size=4, epochs=1, verbose=0)  # fit batch 4
model.fit(x, y, batch_size=6, epochs=1, verbose=0)  # fit batch 6
train_fn = model.train_function

loop_fns = []
for i in range(3):
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])  # model in a loop
    m.predict(np.ones((2, 4), np.float32), verbose=0)  # predict on a new model
    loop_fns.append(m.predict_function)


def double(v):
    return v * 2


ds = tf.data.Dataset.range(4).map(double)  # first map
ds2 = tf.data.Dataset.range(3).map(double)  # second map
assert list(ds.as_numpy_iterator()) == [0, 2, 4, 6]


class Adder(tf.Module):
    @tf.function
    def add(self, x):
        return x + 1.0


adder = Adder()
adder.add(tf.constant([1.0]))
path = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "adder")
tf.saved_model.save(adder, path)
restored = tf.saved_model.load(path)
restored.add(tf.constant([1.0])); led(restored.add)  # noqa: E702  restored call 1
restored.add(tf.constant([2.0])); led(restored.add)  # noqa: E702  restored call 2

counts = {"predict": getattr(predict_fn, "experimental_get_tracing_count", lambda: None)(),
          "train": getattr(train_fn, "experimental_get_tracing_count", lambda: None)(),
          "loop": [getattr(f, "experimental_get_tracing_count", lambda: None)()
                   for f in loop_fns],
          "ledger": LEDGER}
json.dump(counts, open(sys.argv[1], "w"))
