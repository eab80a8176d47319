# expect: TFS404
# tf: autograph-warning
# pattern: AutoGraph's lambda-source limitation (same line, same arguments)
import tensorflow as tf

ds = tf.data.Dataset.range(5).map(lambda x: x * 2).filter(lambda x: x > 2)
list(ds.as_numpy_iterator())
