import tensorflow as tf


def dict_comp_cond(keys, lim):
  return {k: len(k) for k in keys if len(k) < lim}
