import tensorflow as tf


def fstring(x, name):
  s = f'{name}: {x!r:>10} {x + 1}'
  return s
