import tensorflow as tf


def walrus_second(xs):
  if n := len(xs):
    return n
  if (m := len(xs)) > 1:
    return m
  return 0
