# expect: TFS405
# tf: error:OperatorNotAllowedInGraphError
# pattern: AutoGraph limitation: access to source code
import tensorflow as tf

absolute = tf.function(eval("lambda x: x if x > 0 else -x"))
absolute(tf.constant(-2))
