import tensorflow as tf


def nested_ifexp(x):
  return (1 if x > 5 else 2) if x > 0 else (3 if x < -5 else 4)
