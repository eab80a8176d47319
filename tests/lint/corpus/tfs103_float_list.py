# expect: TFS103
# tf: retrace
# pattern: a learning-rate sweep passing Python floats
import tensorflow as tf

@tf.function
def update(w, lr):
    return w - lr * w

w = tf.constant(1.0)
for lr in [0.1, 0.01, 0.001]:
    update(w, lr)
