"""Ops: grappler's rewrites in tf.cond branches, tf.while_loop bodies and [None, d] signatures, bit for bit.

TF lowers and inlines branches and bodies before it optimizes a function; tfscope optimizes each
branch and body as a function of its own. With unknown dims TF's rewrites read symbolic shapes."""
# conformance: live-only: the bits of the rewritten kernels (Rsqrt, AddN) depend on the CPU and on oneDNN
import hashlib


def bits(t):
    a = np.ascontiguousarray(t.numpy())
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


def data(shape, seed, lo, hi):
    i = np.arange(int(np.prod(shape)), dtype=np.int64)
    u = ((i * 2654435761 + seed * 40503) % 100003) / 100003.0
    return (lo + (hi - lo) * u).astype(np.float32).reshape(shape)


x = tf.constant(data([64, 32], 21, -3.0, 3.0))
y = tf.constant(data([64, 32], 22, -3.0, 3.0))


@tf.function
def branchy(t, u, flag):
    if flag:
        r = (t - tf.reduce_mean(t)) / tf.sqrt(tf.reduce_mean(t * t) + 1e-5)
    else:
        r = t / 3.0 + u + t
    return r


@tf.function
def loop(t, u):
    i = tf.constant(0)
    acc = t
    while i < 3:
        acc = acc / 7.0 + u + acc
        i += 1
    return acc


record("cond true branch", bits(branchy(x, y, tf.constant(True))))
record("cond false branch", bits(branchy(x, y, tf.constant(False))))
record("while body", bits(loop(x, y)))


@tf.function(input_signature=[tf.TensorSpec([None, 32], tf.float32)])
def gelu_any_batch(t):
    return 0.5 * t * (1.0 + tf.tanh(0.7978845608 * (t + 0.044715 * tf.pow(t, 3))))


@tf.function(input_signature=[tf.TensorSpec([None, 32], tf.float32), tf.TensorSpec([None, 32], tf.float32)])
def sums_any_batch(t, u):
    return t + u + t + tf.reduce_sum(u, axis=0) + 1.0


record("gelu, [None, 32] signature", bits(gelu_any_batch(x)))
record("sums, [None, 32] signature", bits(sums_any_batch(x, y)))
