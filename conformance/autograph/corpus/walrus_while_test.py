import tensorflow as tf


def walrus_while_test(f):
  total = 0
  while chunk := f():
    total += chunk
  return total
