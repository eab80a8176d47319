# expect: none
# tf: no-retrace
# pattern: one object reused: the same weak reference
import tensorflow as tf

class Config:
    def __init__(self):
        self.scale = 2.0

@tf.function
def f(x, cfg):
    return x * cfg.scale

cfg = Config()
x = tf.constant(1.0)
for i in range(3):
    f(x, cfg)
