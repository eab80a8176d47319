import tensorflow as tf


def lambda_comp(xs):
  fs = [lambda v, i=i: v + i for i in range(3)]
  return [f(x) for f in fs for x in xs]
