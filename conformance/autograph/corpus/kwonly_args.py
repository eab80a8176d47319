import tensorflow as tf


def kwonly_args(x, *, scale=2.0, shift=None):
  if shift is not None:
    x = x + shift
  return x * scale
