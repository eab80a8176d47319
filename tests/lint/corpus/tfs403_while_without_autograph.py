# expect: TFS403
# tf: error:OperatorNotAllowedInGraphError
# pattern: a tensor while test with autograph=False
import tensorflow as tf

@tf.function(autograph=False)
def f(x):
    while x < 3:
        x = x + 1
    return x

f(tf.constant(0))
