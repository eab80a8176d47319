import tensorflow as tf


def return_after_loop_if(xs):
  found = None
  for x in xs:
    if x > 0:
      found = x
      break
  if found is None:
    return 0
  return found
