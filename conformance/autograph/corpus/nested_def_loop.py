import tensorflow as tf


def nested_def_loop(x, n):
  def step(v):
    s = v
    for i in tf.range(n):
      s = s + i
    return s
  return step(x)
