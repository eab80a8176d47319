# expect: none
# tf: ok
# pattern: relu and matmul are builtins
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([1, 3], tf.float32)])
def layer(x):
    return tf.nn.relu(tf.matmul(x, tf.ones([3, 2])))

cf = layer.get_concrete_function()
converter = tf.lite.TFLiteConverter.from_concrete_functions([cf], layer)
converter.convert()
