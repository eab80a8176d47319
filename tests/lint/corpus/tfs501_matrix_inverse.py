# expect: TFS501
# tf: error:ConverterError
# pattern: MatrixInverse has no TFLite builtin
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([3, 3], tf.float32)])
def invert(m):
    return tf.linalg.inv(m)

cf = invert.get_concrete_function()
converter = tf.lite.TFLiteConverter.from_concrete_functions([cf], invert)
converter.convert()
