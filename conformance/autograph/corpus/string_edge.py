import tensorflow as tf


def string_edge():
  a = 'both \' and "'
  b = '\\\\server'
  c = 'line1\nline2\ttab\r'
  d = u'unicode'
  e = '\x7f\x80 \u200b'
  return a, b, c, d, e
