# expect: none
# tf: ok
# pattern: Select TF ops enabled
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([3, 3], tf.float32)])
def invert(m):
    return tf.linalg.inv(m)

cf = invert.get_concrete_function()
converter = tf.lite.TFLiteConverter.from_concrete_functions([cf], invert)
converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS, tf.lite.OpsSet.SELECT_TF_OPS]
converter.convert()
