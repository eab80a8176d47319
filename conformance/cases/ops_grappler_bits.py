"""Ops: tf.function results bit for bit on functions as users write them, which TF's grappler
rewrites before they run (division by a constant, Div(x, Sqrt) -> Mul(x, Rsqrt), Add trees ->
AddN with sorted inputs, Pow by constants, x * x -> Square, x + x -> 2 * x, and with oneDNN
x * sigmoid(x) -> _MklSwish)."""
# conformance: live-only: the bits of the rewritten kernels (Rsqrt, AddN, MatMul) depend on the CPU and on oneDNN
import hashlib


def bits(t):
    a = np.ascontiguousarray(t.numpy())
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


def data(shape, seed, lo, hi):
    """Deterministic inputs without a random generator: integers hashed onto [lo, hi]."""
    i = np.arange(int(np.prod(shape)), dtype=np.int64)
    u = ((i * 2654435761 + seed * 40503) % 100003) / 100003.0
    return (lo + (hi - lo) * u).astype(np.float32).reshape(shape)


x = tf.constant(data([64, 32], 1, -3.0, 3.0))
y = tf.constant(data([64, 32], 2, -3.0, 3.0))
p = tf.constant(data([64, 32], 3, 0.1, 3.0))
long_x = tf.constant(data([100000], 4, -10.0, 10.0))
long_y = tf.constant(data([100000], 5, -10.0, 10.0))
w = tf.constant(data([32, 16], 6, -1.0, 1.0))
b = tf.constant(data([16], 7, -1.0, 1.0))


@tf.function
def layer_norm(t):
    m = tf.reduce_mean(t, axis=-1, keepdims=True)
    v = tf.reduce_mean(tf.square(t - m), axis=-1, keepdims=True)
    return (t - m) / tf.sqrt(v + 1e-6)


@tf.function
def scale_pixels(t):
    return t / 255.0


@tf.function
def div_three(t):
    return t / 3.0


@tf.function
def softmax_by_hand(t):
    e = tf.exp(t - tf.reduce_max(t, axis=-1, keepdims=True))
    return e / tf.reduce_sum(e, axis=-1, keepdims=True)


@tf.function
def polynomial(t):
    return tf.pow(t, 2.0) + tf.pow(t, 0.5) + t**3


@tf.function
def three_terms(a, c):
    return a + c + a


@tf.function
def four_terms(a, c):
    return c + a + a + c * 2.0


@tf.function
def mixed_shapes(a, c):
    return a + tf.reduce_sum(c, axis=0) + 2.0 + c


@tf.function
def mul_chain(t):
    return t * 2.0 + t * t + 1.0


@tf.function
def sum_of_squares(t):
    return tf.reduce_sum(t * t, axis=1)


@tf.function
def twice(t):
    return t + t


@tf.function
def adam_like(t):
    m = 0.9 * t + 0.1 * t * t
    v = 0.999 * t + 0.001 * tf.square(t)
    return t - 0.001 * m / (tf.sqrt(v) + 1e-7)


@tf.function
def mse(a, weights):
    return tf.reduce_mean(tf.square(tf.matmul(a, weights) - 1.0))


@tf.function
def dense_relu(a, weights, bias):
    return tf.nn.relu(tf.matmul(a, weights) + bias)


@tf.function
def l2_normalize(t):
    return t * tf.math.rsqrt(tf.maximum(tf.reduce_sum(tf.square(t), axis=-1, keepdims=True), 1e-12))


@tf.function
def add_n_of_products(a, c):
    return tf.add_n([a * c, a, c * 2.0, c])


@tf.function
def swish(t):
    return t * tf.sigmoid(t)


@tf.function
def rms(t):
    return t / tf.sqrt(tf.reduce_mean(t * t, axis=-1, keepdims=True) + 1e-5)


record("layer norm", bits(layer_norm(x)))
record("x / 255.", bits(scale_pixels(p * 85.0)))
record("x / 3.", bits(div_three(x)))
record("softmax by hand", bits(softmax_by_hand(x)))
record("polynomial", bits(polynomial(p)))
record("x + y + x", bits(three_terms(long_x, long_y)))
record("y + x + x + y * 2", bits(four_terms(long_x, long_y)))
record("mixed shapes", bits(mixed_shapes(x, y)))
record("x * 2 + x * x + 1", bits(mul_chain(x)))
record("sum of squares", bits(sum_of_squares(x)))
record("x + x", bits(twice(x)))
record("adam-like", bits(adam_like(p)))
record("mse", bits(mse(x, w)))
record("dense relu", bits(dense_relu(x, w, b)))
record("l2 normalize", bits(l2_normalize(x)))
record("rms", bits(rms(x)))
record("swish", bits(swish(tf.constant(data([20001], 8, -95.0, 95.0)))))
record("add_n of products", bits(add_n_of_products(long_x, long_y)))
record("eager layer norm", bits((x - tf.reduce_mean(x, axis=-1, keepdims=True)) / 3.0))
