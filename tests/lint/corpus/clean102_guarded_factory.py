# expect: none
# tf: no-retrace
# pattern: a module-level cache makes the Function once
import tensorflow as tf

_fn = None

def double(v):
    return v * 2.0

def run(v):
    global _fn
    if _fn is None:
        _fn = tf.function(double)
    return _fn(v)

for i in range(3):
    run(tf.constant(1.0))
