import tensorflow as tf

get_state = None
itr = 3


def global_name_clash(x):
  if x > 0:
    x = x - 1
  for i in range(itr):
    x = x + i
  return x
