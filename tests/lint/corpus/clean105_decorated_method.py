# expect: none
# tf: no-retrace
# pattern: a @tf.function method called on one instance
import tensorflow as tf

class Model:
    @tf.function
    def forward(self, v):
        return v * 2.0

m = Model()
x = tf.constant(1.0)
for i in range(3):
    m.forward(x)
