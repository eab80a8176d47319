# expect: TFS204
# tf: ok
# pattern: datetime.now() read at trace time
import tensorflow as tf

import datetime

@tf.function
def f(x):
    started = datetime.datetime.now()
    tf.print(started.isoformat())
    return x

f(tf.constant(1))
