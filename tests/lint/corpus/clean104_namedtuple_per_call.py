# expect: none
# tf: no-retrace
# pattern: namedtuples are typed by structure, not identity
import tensorflow as tf

import collections

Pair = collections.namedtuple("Pair", ["a", "b"])

@tf.function
def f(p):
    return p.a + p.b

x = tf.constant(1.0)
for i in range(3):
    f(Pair(x, x))
