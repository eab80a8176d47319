# expect: TFS302
# tf: ok
# pattern: a global list read at trace time, appended later
import tensorflow as tf

weights = [1.0, 2.0]

@tf.function
def weighted(x):
    return x * sum(weights)

weighted(tf.constant(1.0))
weights.append(3.0)
weighted(tf.constant(1.0))
