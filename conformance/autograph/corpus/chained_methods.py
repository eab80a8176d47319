import tensorflow as tf


def chained_methods(s):
  parts = s.strip().lower().split(",")
  return [p.strip() for p in parts if p]
