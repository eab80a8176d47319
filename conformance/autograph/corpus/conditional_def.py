import tensorflow as tf

if hasattr(tf, "function"):

  def conditional_def(x):
    if x > 0:
      x = -x
    return x
