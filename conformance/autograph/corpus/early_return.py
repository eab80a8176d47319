import tensorflow as tf


def early_return(x):
  if x > 0:
    return x
  return -x
