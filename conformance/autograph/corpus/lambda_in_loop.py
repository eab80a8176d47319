import tensorflow as tf


def lambda_in_loop(xs):
  total = 0
  for x in xs:
    f = lambda v, k=2, *a: v * k
    total = total + f(x)
  return total
