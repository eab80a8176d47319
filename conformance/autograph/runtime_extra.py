"""Runtime-only conformance functions (not in the to_code corpus): TF's loop and branch checks,
calls into converted helpers, builtins overloaded for tensors."""
import tensorflow as tf


def loop_dtype_change(n):
  x = 0
  for i in tf.range(n):
    x = tf.cast(i, tf.float32)
  return x


def loop_shape_change(n):
  x = tf.constant(0)
  i = 0
  while i < n:
    x = tf.stack([x, x])
    i += 1
  return x


def branch_dtype_mismatch(x):
  if x > 0:
    y = 1
  else:
    y = 2.0
  return y


def python_to_tensor_while(n):
  i = 0
  while i < 3:
    i = i + n
  return i


def tensor_break_in_py_for(n):
  s = 0
  for i in range(5):
    if s > n:
      break
    s += i
  return s


def cond_not_bool(x):
  if x:
    y = 1
  else:
    y = 2
  return y


def _helper(v):
  if v > 0:
    return v * 2
  return -v


def helper_call(x):
  return _helper(x) + 1


def range_builtin_tensor(n):
  s = 0
  for i in range(n):
    s += i
  return s


def len_of_tensor(x):
  n = len(x)
  s = 0
  for i in range(n):
    s += x[i]
  return s


def stateful_branch(x):
  if x > 0:
    tf.print("positive", x)
    y = x
  else:
    y = -x
  return y


def float_loop(x):
  while x < 10.0:
    x = x * 3.0
  return x


def retrace_on_python_flag(x, flag):
  if flag:
    for i in tf.range(x):
      x += i
  else:
    x = x - 1
  return x


class Accumulator(object):

  def __init__(self):
    self.x = tf.constant(0)

  def add_range(self, n):
    for i in tf.range(n):
      self.x = self.x + i
    return self.x


def method_attr_state(n):
  return Accumulator().add_range(n)


def dict_state_loop(n):
  d = {'k': tf.constant(0), 'j': 1}
  for i in tf.range(n):
    d['k'] = d['k'] + i
  return d['k']


class Base(object):

  def scale(self, x):
    return x * 2


class Derived(Base):

  def scale(self, x):
    if x > 0:
      y = super().scale(x)
    else:
      y = -x
    return y


def super_method(x):
  return Derived().scale(x)


COUNTER = tf.Variable(0)


def variable_loop(n):
  i = 0
  while i < n:
    COUNTER.assign_add(1)
    i += 1
  return COUNTER.read_value()


def variable_branch(x):
  if x > 0:
    COUNTER.assign_add(10)
  return COUNTER.read_value()


lambda_ifexp = lambda x: x if x > 0 else -x  # noqa: E731

lambda_helper = lambda x: _helper(x) + 1  # noqa: E731


def for_over_vector(t):
  acc = tf.constant(0)
  for x in t:
    acc += x
  return acc


def for_over_tensor_break(t):
  acc = tf.zeros([3])
  for row in t:
    acc = acc + row
    if tf.reduce_sum(acc) > 100.0:
      break
  return acc


def for_over_tensor_nested(t):
  total = tf.constant(0)
  for row in t:
    for x in row:
      total = total * 2 + x
  return total


def for_over_empty_tensor(t):
  acc = tf.ones([3])
  for row in t:
    acc = acc * row
  return acc


def for_over_scalar_tensor(t):
  acc = tf.constant(0)
  for x in t:
    acc += x
  return acc


def tensor_index_in_range_loop(t, n):
  acc = tf.constant(0)
  for i in tf.range(n):
    acc = acc * 10 + t[i]
  return acc


def slices_with_tensor_bounds(t, i):
  return t[i], t[i, 1:], t[:, i:], t[..., tf.newaxis][0, :i]



def loop_shape_invariant(n):
  x = tf.constant([0])
  for i in tf.range(n):
    tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
    x = tf.concat([x, [i]], 0)
  return x


def loop_shape_invariant_violated(n):
  x = tf.constant([0])
  for i in tf.range(n):
    tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([2]))])
    x = tf.concat([x, [i]], 0)
  return x


def while_shape_invariant(n):
  x = tf.zeros([1, 2])
  while tf.shape(x)[0] < n:
    tf.autograph.experimental.set_loop_options(
        shape_invariants=[(x, tf.TensorShape([None, 2]))])
    x = tf.concat([x, x], 0)
  return x
