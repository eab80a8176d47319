import tensorflow as tf


def match_subject_name(x, mode):
  match mode:
    case 1:
      y = x + 1
    case [a, b]:
      y = x * a
    case _:
      y = x
  if x > 0:
    y = y * 2
  return y
