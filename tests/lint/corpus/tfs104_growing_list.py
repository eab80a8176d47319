# expect: TFS104
# tf: retrace
# pattern: a list whose length grows every iteration
import tensorflow as tf

@tf.function
def total(xs):
    return tf.add_n(xs)

xs = []
for i in range(3):
    xs.append(tf.constant(1.0))
    total(xs)
