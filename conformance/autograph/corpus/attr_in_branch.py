import tensorflow as tf


def attr_in_branch(self, x):
  if x > 0:
    self.value = x
  else:
    self.value = -x
  return self.value
