# expect: TFS501
# tf: error:ConverterError
# pattern: EagerPyFunc cannot be converted
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
def wrapped(x):
    return tf.py_function(lambda a: a * 2, [x], tf.float32)

cf = wrapped.get_concrete_function()
converter = tf.lite.TFLiteConverter.from_concrete_functions([cf], wrapped)
converter.convert()
