# expect: TFS302
# tf: ok
# pattern: guide: buggy_add (Python globals are captured at trace time)
import tensorflow as tf

foo = 1

@tf.function
def buggy_add():
    return 1 + foo

buggy_add()
foo = 100
buggy_add()
