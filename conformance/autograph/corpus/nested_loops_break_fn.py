import tensorflow as tf


def nested_loops_break_fn(n):
  s = 0
  for i in range(n):
    def inner(k):
      t = 0
      for j in range(k):
        if j > 3:
          break
        t += j
      return t
    s += inner(i)
    if s > 100:
      break
  return s
