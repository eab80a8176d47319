import tensorflow as tf


def numeric_edge(x):
  a = 1.0 + 1.5e300 * 10 + 0.000123 + 123456789012345678.0
  b = 1_000_000j + 0e0 + 00 + 0.5j
  return x * a, b
