# expect: TFS103
# tf: retrace
# pattern: a mode string that changes per iteration
import tensorflow as tf

@tf.function
def run(x, mode):
    if mode == "double":
        return x * 2.0
    return x

x = tf.constant(1.0)
for mode in ["double", "same", "other"]:
    run(x, mode)
