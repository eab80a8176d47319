# expect: TFS202
# tf: ok
# pattern: guide: external_list.append inside tf.function
import tensorflow as tf

external_list = []

@tf.function
def side_effect(x):
    external_list.append(x)
    return x * 2

side_effect(tf.constant(1))
side_effect(tf.constant(2))
