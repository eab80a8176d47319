import tensorflow as tf


def unicode_names(x):
  café = x
  if café > 0:
    café = -café
  return café
