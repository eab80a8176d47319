import tensorflow as tf

COUNTER = 0


def global_state(x):
  global COUNTER
  if x > 0:
    COUNTER = COUNTER + 1
  return COUNTER
