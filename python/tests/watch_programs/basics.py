# Watched under real TF by test_watch.py: the seeds' retrace triggers, the Python-int step bug,
# a tf.function made in a loop and a method per instance. led(f) records TF's own trace count
# after each call (the oracle watch's hit/trace per call is checked against).
import itertools
import json
import sys

import tensorflow as tf

LEDGER = []
_KEYS = itertools.count()


def led(f):
    # A serial number per Function object, not id(f): a freed Function's id can be reused by the
    # next one (a tf.function made in a loop), which would merge their counts.
    if "_led_key" not in f.__dict__:
        f.__dict__["_led_key"] = next(_KEYS)
    key = f.__dict__["_led_key"]
    LEDGER.append([f.__class__.__name__, key, f.experimental_get_tracing_count()])


@tf.function
def scaled(x, factor):
    return x * factor


a = tf.constant([1, 2])
b = tf.constant([8, 9])
c = tf.constant([1, 2, 3, 4])
scaled(a, 2); led(scaled)  # noqa: E702
scaled(b, 2); led(scaled)  # noqa: E702
scaled(c, 2); led(scaled)  # noqa: E702
scaled(c, 3); led(scaled)  # noqa: E702
scaled(tf.constant([1.0, 2.0]), 2); led(scaled)  # noqa: E702

v = tf.Variable(0.0)


@tf.function
def train_step(x, step):
    v.assign_add(tf.reduce_sum(x) * tf.cast(step, tf.float32))
    return v


for step in range(3):
    train_step(tf.ones([2]), step); led(train_step)  # noqa: E702
for step in range(3):
    train_step(tf.ones([2]), tf.constant(step)); led(train_step)  # noqa: E702

for i in range(3):
    g = tf.function(lambda x: x + 1)
    g(tf.constant(1.0)); led(g)  # noqa: E702


class Scaler:
    def __init__(self, k):
        self.k = k

    @tf.function
    def apply(self, x):
        return x * self.k


for k in (2.0, 3.0):
    s = Scaler(k)
    s.apply(tf.constant(1.0)); led(s.apply)  # noqa: E702

json.dump(LEDGER, open(sys.argv[1], "w"))
