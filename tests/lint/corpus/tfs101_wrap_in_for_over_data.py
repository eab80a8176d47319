# expect: TFS101
# tf: retrace
# pattern: a loop over data that wraps the same function each batch
import tensorflow as tf

def loss_fn(v):
    return tf.reduce_mean(v)

batches = [tf.ones([2]), tf.zeros([2]), tf.ones([2])]
for b in batches:
    compiled = tf.function(loss_fn)
    compiled(b)
