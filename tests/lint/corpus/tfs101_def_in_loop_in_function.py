# expect: TFS101
# tf: retrace
# pattern: training loop with the step defined inside the epoch loop
import tensorflow as tf

def train(epochs):
    x = tf.ones([2])
    for epoch in range(epochs):
        @tf.function
        def train_step(v):
            return tf.reduce_sum(v)
        train_step(x)

train(3)
