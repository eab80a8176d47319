import tensorflow as tf


def elif_returns(x):
  if x > 10:
    return 3
  elif x > 5:
    return 2
  elif x > 0:
    return 1
  else:
    return 0
