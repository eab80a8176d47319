"""Ops: normalization bit for bit. tf.nn.moments, tf.nn.batch_normalization, tf.nn.l2_normalize,
tf.math.reduce_variance/reduce_std, a layer norm and tf.math.cumsum on random float32 data,
eagerly and in tf.function, recorded as their bytes (hashed): every op in them is one TF 2.21
runs with Eigen's kernels (Mean and Sum in TF's reduction order, SquaredDifference, Rsqrt from
the CPU's RSQRTPS estimate, Mul, AddV2, Cumsum's running sum), the same under both
TF_ENABLE_ONEDNN_OPTS settings."""
# conformance: live-only: Rsqrt's packets start from RSQRTPS, whose table differs between Intel and AMD, and full reductions shard over the machine's threads
import hashlib


def bits(t):
    a = np.ascontiguousarray(t.numpy())
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


rng = np.random.RandomState(7)
for shape in ([64, 128], [8, 33, 768], [1000, 10], [3, 5000]):
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    m, v = tf.nn.moments(x, axes=[-1], keepdims=True)
    record(f"moments last axis {shape}", [bits(m), bits(v)])
    m0, v0 = tf.nn.moments(x, axes=[0])
    record(f"moments axis 0 {shape}", [bits(m0), bits(v0)])
    gamma = rng.uniform(0.5, 2, shape[-1:]).astype(np.float32)
    beta = rng.standard_normal(shape[-1:]).astype(np.float32)
    record(f"batch_normalization {shape}", bits(tf.nn.batch_normalization(x, m, v, beta, gamma, 1e-3)))
    record(f"l2_normalize {shape}", bits(tf.nn.l2_normalize(x, axis=-1)))
    record(f"reduce_variance {shape}", bits(tf.math.reduce_variance(x)))
    record(f"reduce_std axis 0 {shape}", bits(tf.math.reduce_std(x, axis=0)))
    mean = tf.reduce_mean(x, axis=-1, keepdims=True)
    var = tf.reduce_mean(tf.square(x - mean), axis=-1, keepdims=True)
    record(f"layer norm {shape}", bits((x - mean) * tf.math.rsqrt(var + 1e-6) * gamma + beta))
    record(f"cumsum {shape}", bits(tf.math.cumsum(x, axis=-1)))
    record(f"cumsum axis 0 reverse exclusive {shape}", bits(tf.math.cumsum(x, axis=0, exclusive=True, reverse=True)))
    record(f"squared_difference {shape}", bits(tf.math.squared_difference(x, m)))


@tf.function
def layer(x, gamma, beta):
    m, v = tf.nn.moments(x, axes=[-1], keepdims=True)
    return tf.nn.batch_normalization(x, m, v, beta, gamma, 1e-5), tf.nn.l2_normalize(x, -1)


x = (rng.standard_normal([16, 256]) * 2).astype(np.float32)
g = rng.uniform(0.5, 2, [256]).astype(np.float32)
b = rng.standard_normal([256]).astype(np.float32)
record("in tf.function", [bits(t) for t in layer(x, g, b)])
