import tensorflow as tf


def walrus_if_test(xs):
  if n := len(xs):
    return n
  return 0
