# expect: none
# tf: ok
# pattern: different argument names tell the lambdas apart
import tensorflow as tf

ds = tf.data.Dataset.range(5).map(lambda x: x * 2).filter(lambda y: y > 2)
list(ds.as_numpy_iterator())
