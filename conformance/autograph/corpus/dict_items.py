import tensorflow as tf


def dict_items(d):
  total = 0
  for k, v in d.items():
    total += v
  return total
