import tensorflow as tf


def return_in_try_loop(xs):
  for x in xs:
    try:
      if x > 2:
        return x
    finally:
      pass
  return None
