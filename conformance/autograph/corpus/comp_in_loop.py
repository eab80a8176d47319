import tensorflow as tf


def comp_in_loop(n):
  out = []
  for i in range(n):
    out = out + [i * j for j in range(i)]
  return out
