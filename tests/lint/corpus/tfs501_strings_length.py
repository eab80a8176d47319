# expect: TFS501
# tf: error:ConverterError
# pattern: StringLength has no TFLite builtin
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([2], tf.string)])
def lengths(s):
    return tf.strings.length(s)

cf = lengths.get_concrete_function()
converter = tf.lite.TFLiteConverter.from_concrete_functions([cf], lengths)
converter.convert()
