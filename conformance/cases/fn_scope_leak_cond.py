"""Graph scope: a tensor made in a tf.cond branch, leaked through a Python list and used after
the cond: TF's InaccessibleTensorError (a ValueError, kept as its own class through AutoGraph's
error rewriting), naming the branch graph; nothing is cached."""
import re

leak = []


@tf.function
def c(x):
    def true_fn():
        v = x * 2
        leak.append(v)
        return v

    r = tf.cond(x > 0, true_fn, lambda: x)
    return r + leak[0]


try:
    c(tf.constant(1))
    record("error", None)
except Exception as e:
    lines = str(e).split("\n")
    record("error type", type(e).__name__)
    record("is ValueError", isinstance(e, ValueError))
    record("first line", lines[0])
    record("cause line", [ln.strip()[:80] for ln in lines if "is out of scope" in ln][:1])
    record("last line", re.sub(r"_\d+,", ",", re.sub(r"id=\d+", "id=<id>", lines[-1])))
count("count", c)
