import tensorflow as tf


def with_as_branch(x, path):
  if x > 0:
    with open(path) as fh:
      data = fh.read()
  else:
    data = ''
  return data
