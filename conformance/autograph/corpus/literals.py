import tensorflow as tf


def literals(x):
  a = 'it\'s'
  b = "tab\there\n"
  c = b'\x00bytes'
  d = 0x1F + 0o17 + 0b101 + 1_000
  e = 1e-7 + 2.5 + 1e20 + 3j + 0.1
  f = 'caf\u00e9 \U0001F600'
  g = '''multi
line'''
  return a, b, c, d, e, f, g
