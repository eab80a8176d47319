import tensorflow as tf


def nested_def_nonlocal_loop(n):
  total = 0
  def run():
    nonlocal total
    for i in range(n):
      total = total + i
  run()
  return total
