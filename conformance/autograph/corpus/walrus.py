import tensorflow as tf


def walrus(xs):
  if (n := len(xs)) > 3:
    return n
  return 0
