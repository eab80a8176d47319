import tensorflow as tf


def expr_zoo(a, b, c, m):
  p = ~a & b | c ^ a
  q = m @ m
  r = -a ** -b
  s = a.b().c[b](c)
  t = sum((x for x in a), start=0)
  u = a[::2], a[..., 1], a[1:-1:2]
  v = f(*a, b, *c) if False else g(**c)
  w = {"x": {"y": [1, (2,)]}}
  return p, q, r, s, t, u, v, w
