import functools

import tensorflow as tf


def nested_decorator(f, x):
  @functools.wraps(f)
  def wrapper(*a):
    for i in range(x):
      a = a + (i,)
    return f(*a)
  return wrapper
