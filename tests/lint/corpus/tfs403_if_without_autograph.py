# expect: TFS403
# tf: error:OperatorNotAllowedInGraphError
# pattern: tensor as a Python bool with autograph=False
import tensorflow as tf

@tf.function(autograph=False)
def f(x):
    if x > 0:
        return x
    return -x

f(tf.constant(1))
