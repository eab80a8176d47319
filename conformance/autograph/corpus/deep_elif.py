import tensorflow as tf


def deep_elif(x):
  if x == 1:
    r = "one"
  elif x == 2:
    r = "two"
  elif x == 3:
    r = "three"
  elif x == 4:
    r = "four"
  else:
    r = "many"
  return r
