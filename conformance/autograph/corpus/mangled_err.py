import tensorflow as tf


def mangled_err(self):
  return self.__secret
