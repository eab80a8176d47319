# expect: TFS103
# tf: retrace
# pattern: guide: Rules of tracing (Python scalars are Literal trace types)
import tensorflow as tf

@tf.function
def f(x, n):
    return x * n

x = tf.constant(1.0)
for i in range(4):
    f(x, i)
