import tensorflow as tf


def yield_from_err(xs):
  yield from xs
