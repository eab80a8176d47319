import tensorflow as tf


def nonlocal_inner(x):
  count = 0
  def bump(v):
    nonlocal count
    if v > 0:
      count = count + v
    return count
  return bump(x)
