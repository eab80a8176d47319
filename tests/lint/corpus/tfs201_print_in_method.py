# expect: TFS201
# tf: ok
# pattern: print in a tf.Module's tf.function
import tensorflow as tf

class Counter(tf.Module):
    @tf.function
    def __call__(self, x):
        print("calling")
        return x * 2

Counter()(tf.constant(1))
