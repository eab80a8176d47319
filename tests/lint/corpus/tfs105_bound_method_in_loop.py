# expect: TFS105
# tf: retrace
# pattern: tf.function(obj.method) re-wrapped per step
import tensorflow as tf

class Model:
    def forward(self, v):
        return v * 2.0

m = Model()
x = tf.constant(1.0)
for i in range(3):
    fwd = tf.function(m.forward)
    fwd(x)
