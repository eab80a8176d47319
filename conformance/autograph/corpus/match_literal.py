import tensorflow as tf


def match_literal(x):
  match 3:
    case 1 | 2:
      y = x + 1
    case [1, *_] | (2, 3):
      y = x * 2
    case {"k": 1, **rest}:
      y = x - 1
    case -1 | 1.5 | 2+3j | "s" | None:
      y = 0
    case _:
      y = x
  return y
