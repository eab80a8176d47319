import tensorflow as tf


def keyword_lambda_default(xs, *, key=None):
  f = key if key is not None else (lambda v: v)
  return sorted(xs, key=f)
