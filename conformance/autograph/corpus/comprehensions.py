import tensorflow as tf


def comprehensions(xs):
  a = [v * 2 for v in xs if v > 0]
  b = {k: v for k, v in zip(xs, xs)}
  c = {v for v in xs}
  d = sum(v for v in xs)
  return a, b, c, d
