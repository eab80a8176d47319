import tensorflow as tf


def try_in_loop(xs):
  s = 0
  for x in xs:
    try:
      v = int(x)
    except ValueError:
      continue
    s += v
  return s
