import tensorflow as tf


def return_none_loop(xs):
  for x in xs:
    if x is None:
      return
    tf.print(x)
