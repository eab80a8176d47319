"""Graph scope: a graph tensor kept from one function's trace and used by another function: the second traces (count 1) and its call raises TF's out-of-scope TypeError; used eagerly, the same TypeError."""
import re

saved = []


@tf.function
def f1(x):
    y = x + 1
    saved.append(y)
    return y


@tf.function
def f2():
    return saved[0] * 2


call("f1", f1, tf.constant(1))


def error_lines(thunk):
    try:
        thunk()
        return None
    except Exception as e:
        lines = str(e).split("\n")
        return [type(e).__name__, lines[0], re.sub(r"id=\d+", "id=<id>", lines[-1])]


record("f2()", error_lines(f2))
count("f2 count", f2)
record("saved[0] + 1 eagerly", error_lines(lambda: saved[0] + 1))
record("tf.add(saved[0], 1) eagerly", error_lines(lambda: tf.add(saved[0], 1)))
