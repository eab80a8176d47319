import tensorflow as tf


def walrus_assign(xs):
  y = [n := 1, n + 1]
  return y
