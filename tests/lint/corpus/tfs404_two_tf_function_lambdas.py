# expect: TFS404
# tf: autograph-warning
# pattern: two tf.function lambdas on one line
import tensorflow as tf

pos = tf.function(lambda x: x if x > 0 else -x); neg = tf.function(lambda x: -x)
neg(tf.constant(3))
