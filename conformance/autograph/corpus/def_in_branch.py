import tensorflow as tf


def def_in_branch(x, y):
  if x > 0:
    def pick(v):
      return v + y
  else:
    def pick(v):
      return v - y
  return pick(x)
