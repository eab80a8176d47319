import tensorflow as tf


def g(*args, **kw):
  return args


def star_args(x, *args, **kw):
  return g(1, x, *args, key=x, **kw)
