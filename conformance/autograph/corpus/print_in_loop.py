import tensorflow as tf


def print_in_loop(n):
  for i in tf.range(n):
    print("step", i)
    tf.print(i)
