"""Ops: float results of graphs that TF's grappler rewrites before a tf.function runs. Eagerly
each op runs as written (and tfscope computes TF's bits); in a graph TF's arithmetic optimizer
turns Pow by a constant 2, 3, 0.5, -1, -0.5 into Square, Mul(x, Square(x)), Sqrt, Reciprocal and
Rsqrt, Log(x + 1) into Log1p and Exp(x) - 1 into Expm1 (and with oneDNN its remapper turns
x * Sigmoid(x) into _MklSwish), which round differently. Results are hashes of the bytes."""
# conformance: live-only: TF's grappler rewrites x * Sigmoid(x) into _MklSwish only where oneDNN runs, which depends on the CPU and TF_ENABLE_ONEDNN_OPTS
import hashlib


def bits(t):
    a = np.ascontiguousarray(t.numpy())
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


x = tf.constant(np.random.default_rng(11).uniform(-10, 10, 2003).astype(np.float32))
positive = tf.abs(x) + 1e-3


@tf.function
def powers(t, p):
    return [tf.pow(t, 2.0), tf.pow(t, 3.0), tf.pow(p, 0.5), tf.pow(t, -1.0), tf.pow(p, -0.5)]


@tf.function
def log_exp(t, p):
    return [tf.math.log(p + 1.0), tf.exp(t) - 1.0]


@tf.function
def swish(t):
    return t * tf.sigmoid(t)


for label, y in zip(["pow 2", "pow 3", "pow 0.5", "pow -1", "pow -0.5"], powers(x, positive)):
    record(f"tf.function {label}", bits(y))
for label, y in zip(["log(x + 1)", "exp(x) - 1"], log_exp(x, positive)):
    record(f"tf.function {label}", bits(y))
record("tf.function x * sigmoid(x)", bits(swish(x)))
record("eager pow 2", bits(tf.pow(x, 2.0)))
record("eager log(x + 1)", bits(tf.math.log(positive + 1.0)))
