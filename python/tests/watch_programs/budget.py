# Watched under real TF by test_watch.py with a trace budget: the retrace of f raises
# RetraceError; make_var's two traces on its first call (variables created) count as one.
import tensorflow as tf

v = []


@tf.function
def make_var(x):
    if not v:
        v.append(tf.Variable(x))
    return v[0] + x


make_var(tf.constant(1.0))
make_var(tf.constant(2.0))
assert make_var.experimental_get_tracing_count() == 2


@tf.function
def f(x, step):
    return x + tf.cast(step, tf.float32)


f(tf.constant(1.0), 0)
f(tf.constant(2.0), 0)
print("before the retrace", flush=True)
f(tf.constant(1.0), 1)  # the retrace
print("after the retrace", flush=True)
