"""Graph scope: a tensor of a traced function kept in a Python list, then used eagerly, by
another function (directly and through an inner function): TF's TypeError "... is out of scope
and cannot be used here", raised while tracing the other function (which keeps no trace); the
symbolic tensor has no numpy()."""
import re

store = []


@tf.function
def f(x):
    y = x + 1
    store.append(y)
    return y


call("traced", f, tf.constant(1))


def summary(e):
    lines = str(e).split("\n")
    return (type(e).__name__, lines[0],
            re.sub(r"_\d+,", ",", re.sub(r"id=\d+", "id=<id>", lines[-1])))


def used(label, thunk):
    try:
        thunk()
        record(label, None)
    except Exception as e:
        record(label, summary(e))


used("eager add", lambda: store[0] + 1)
used("numpy", lambda: store[0].numpy())


@tf.function
def g(x):
    return x + store[0]


used("another function", lambda: g(tf.constant(1)))
count("another function count", g)


@tf.function
def outer():
    @tf.function
    def inner():
        return store[0] * 2
    return inner()


used("an inner function", outer)
count("outer count", outer)
