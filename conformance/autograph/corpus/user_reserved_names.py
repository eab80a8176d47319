import tensorflow as tf


def user_reserved_names(n):
  loop_body = 0
  break_ = 1
  for i in range(n):
    if i > break_:
      break
    loop_body = loop_body + i
  return loop_body
