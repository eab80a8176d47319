import tensorflow as tf


def two_returns_loop(n):
  i = 0
  while i < n:
    if i == 3:
      return "three"
    if i == 5:
      return "five"
    i += 1
  return "none"
