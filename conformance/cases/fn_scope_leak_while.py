"""Graph scope: a tensor leaked out of a while body through a Python list and used by the function: TF's InaccessibleTensorError (a ValueError) at trace time, naming both graphs; nothing is cached."""
import re

leak = []


@tf.function
def wl(n):
    i = tf.constant(0)
    while i < n:
        leak.append(i + 1)
        i += 1
    return leak[0]


try:
    wl(tf.constant(3))
    record("error", None)
except Exception as e:
    lines = str(e).split("\n")
    record("error type", type(e).__name__)
    record("is ValueError", isinstance(e, ValueError))
    record("first line", lines[0])
    record("last line", re.sub(r"_\d+,", ",", re.sub(r"id=\d+", "id=<id>", lines[-1])))
count("count", wl)
