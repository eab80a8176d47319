# expect: TFS103
# tf: retrace
# pattern: train_step(x, epoch=epoch) in an epoch loop
import tensorflow as tf

@tf.function
def train_step(x, epoch=0):
    return x * 2.0 + epoch

x = tf.constant(1.0)
for epoch in range(3):
    train_step(x, epoch=epoch)
