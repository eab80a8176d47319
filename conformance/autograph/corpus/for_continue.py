import tensorflow as tf


def for_continue(items):
  s = 0
  for c in items:
    if c % 2 > 0:
      continue
    s += c
  return s
