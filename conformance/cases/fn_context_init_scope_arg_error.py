"""Context: under tf.init_scope a value computed from a function argument is out of scope: TF's TypeError (its first line and its last, which names the graph) and nothing is cached."""
import re


class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = None

    @tf.function(autograph=False)
    def __call__(self, x):
        if self.v is None:
            with tf.init_scope():
                self.v = tf.Variable(x * 2)
        return x * self.v


m = M()
try:
    m(tf.constant([1.0, 2.0]))
    record("error", None)
except Exception as e:
    lines = str(e).split("\n")
    record("error type", type(e).__name__)
    record("first line", lines[0])
    record("last line", re.sub(r"id=\d+", "id=<id>", lines[-1]))
count("count", m.__call__)
record("v is still None", m.v is None)
