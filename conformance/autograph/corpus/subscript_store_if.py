import tensorflow as tf


def subscript_store_if(x, v):
  if v > 0:
    x[0] = v
  return x
