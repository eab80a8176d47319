# Prints TF's texts for a graph error and a Python exception raised while tracing; test_watch.py
# runs it with and without watch: the texts (stacks included) must be the same.
import traceback

import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def to_square(x):
    return tf.reshape(x, [2, 2])


try:
    to_square(tf.constant([1.0, 2.0, 3.0]))
except tf.errors.InvalidArgumentError as e:
    print(e.message)


@tf.function
def bad(x):
    raise ValueError("no")


try:
    bad(tf.constant(1.0))
except ValueError:
    print("".join(traceback.format_exc().splitlines(True)[-6:]))
