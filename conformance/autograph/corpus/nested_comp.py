import tensorflow as tf


def nested_comp(m, k):
  return [[v + k for v in row if v > k] for row in m]
