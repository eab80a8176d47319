"""tf.py_function and tf.numpy_function: eagerly and in a tf.function the Python callback runs
on every call (the trace runs it no more than that), EagerPyFunc / PyFunc nodes with their host
inputs converted as "EagerPyFunc/input_1", chained by automatic control dependencies, outputs of
unknown shape; a list Tout gives a list; numpy_function passes numpy values."""
import numpy as np


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


calls = []


def py_add(x, y):
    calls.append(("py", tf.is_tensor(x)))
    return x + y


def np_add(x, y):
    calls.append(("np", type(x).__name__, str(x.dtype)))
    return x + y


call("eager py_function", lambda: tf.py_function(py_add, [tf.constant(1.), tf.constant(2.)], tf.float32))
call("eager numpy_function", lambda: tf.numpy_function(np_add, [tf.constant(1.), tf.constant(2.)], tf.float32))
record("eager calls", list(calls))
del calls[:]


@tf.function
def f(x):
    a = tf.py_function(py_add, [x, 1.], tf.float32)
    b = tf.numpy_function(np_add, [x, np.float32(2.)], tf.float32)
    return a, b


call("f 3", f, tf.constant(3.))
call("f 4", f, tf.constant(4.))
count("f traces", f)
record("f calls", list(calls))
cf = f.get_concrete_function(tf.constant(3.))
record("f nodes", nodes(cf))
record("f output shapes", [repr(t.shape) for t in cf.structured_outputs])


def two(x):
    return x, x * 2


call("a list of outputs", lambda: tf.py_function(two, [tf.constant([1, 2])], [tf.int32, tf.int32]))
call("no outputs", lambda: tf.py_function(lambda: None, [], []))
call("numpy inside py_function", lambda: tf.py_function(lambda x: x.numpy() + 1, [tf.constant(1)], tf.int32))
call("numpy_function returns a list", lambda: tf.numpy_function(lambda x: [x, x + 1], [tf.constant([1, 2])], [tf.int32, tf.int32]))
call("numpy_function of strings", lambda: tf.numpy_function(lambda s: s, [tf.constant(["a", "b"])], tf.string))


@tf.function
def counter(x):
    return tf.py_function(lambda v: v + len(calls), [x], tf.int32)


del calls[:]
call("counter", counter, tf.constant(10))
calls.append(1)
call("counter after a Python change", counter, tf.constant(10))
count("counter traces", counter)
