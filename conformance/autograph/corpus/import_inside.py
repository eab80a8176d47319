import tensorflow as tf


def import_inside(x):
  import math
  from os import path as p
  return math.sqrt(x), p
