import tensorflow as tf


def match_guard_name(x):
  if x > 0:
    x = x + 1
  match (1, 2):
    case (1, 2) | [3, 4] as pair if x:
      pass
    case Point(1, y=2):
      pass
  return x
