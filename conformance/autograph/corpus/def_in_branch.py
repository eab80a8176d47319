# A function, a class and an import bound in one branch only, a different function in the other
# (found by fuzz_autograph: the names a def, class or import binds were not in the QN table, and
# the converter failed with "map::at").
import tensorflow as tf


def def_in_branch(x, y):
  if x > 0:
    def pick(v):
      return v + y
    class Box:
      pass
    import math as m
  else:
    def other(v):
      return v - y
  return pick(x), Box, m
