# expect: none
# tf: no-retrace
# pattern: the bound method is wrapped once
import tensorflow as tf

class Model:
    def forward(self, v):
        return v * 2.0

m = Model()
fwd = tf.function(m.forward)
x = tf.constant(1.0)
for i in range(3):
    fwd(x)
