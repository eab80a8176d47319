import tensorflow as tf


def defaults(x, n=3, *args, k=1, **kw):
  return x + n + k
