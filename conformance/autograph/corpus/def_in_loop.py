import tensorflow as tf


def def_in_loop(n):
  acc = 0
  for i in range(n):
    def add(v):
      return v + acc
    acc = add(i)
  return acc
