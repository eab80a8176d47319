import tensorflow as tf


def test_with_lambda(xs, t):
  if any(map(lambda v: v > t, xs)):
    r = [v for v in xs if v > t]
  else:
    r = []
  return r
