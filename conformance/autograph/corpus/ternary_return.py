import tensorflow as tf


def ternary_return(a, b):
  return a if a > b else (b if b > 0 else 0)
