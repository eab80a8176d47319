import tensorflow as tf


def fstring_quotes(d):
  return f"{d['k']} and {d['j']!s}"
