# expect: TFS104
# tf: retrace
# pattern: guide: Depending on Python objects (a new object each call)
import tensorflow as tf

class Config:
    def __init__(self):
        self.scale = 2.0

@tf.function
def f(x, cfg):
    return x * cfg.scale

x = tf.constant(1.0)
for i in range(3):
    f(x, Config())
