import tensorflow as tf


def match_as_name(x):
  match = x + 1
  match.shape
  match (match):
    case ((1 as a) | (2 as a)) as b:
      pass
  return match
