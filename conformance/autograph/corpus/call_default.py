import tensorflow as tf


def call_default(x, n=len("ab")):
  def inner(y, m=len("abc")):
    return y + m
  if x > n:
    x = x - 1
  return inner(x) + n
