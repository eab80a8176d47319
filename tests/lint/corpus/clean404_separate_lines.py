# expect: none
# tf: ok
# pattern: each lambda on its own line
import tensorflow as tf

ds = tf.data.Dataset.range(5)
ds = ds.map(lambda x: x * 2)
ds = ds.filter(lambda x: x > 2)
list(ds.as_numpy_iterator())
