"""Ops: float reductions bit for bit. TF 2.21 reduces in the order of its Eigen kernels (packet
accumulators, a tree over halves for sums of more than 8192 floats, shards over its intra-op
threads for full reductions, packets of columns for axis-0 sums), so a naive running sum differs
from it in the last bits, or by far more: tf.reduce_sum(tf.ones([2e7])) is 2e7 in TF, 2^24 summed
one by one. Values are recorded as their bytes (hashed when long), because the suite's 1e-6 float
tolerance would hide a different order. The bits depend on TF's thread count (the CPUs it may
use), the same for both sides of one run."""
# conformance: live-only: TF shards full float reductions over its intra-op threads, so the sums' order depends on the machine's core count
import hashlib


def bits(t):
    a = np.ascontiguousarray(t.numpy())
    raw = a.tobytes()
    if a.size <= 4:
        return f"{a.dtype}{list(a.shape)} {raw.hex()}"
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(raw).hexdigest()[:16]}"


def wide(shape, seed, dtype=np.float32):
    """Normal values spread over six decades: every reordering of their sum shows."""
    rng = np.random.RandomState(seed)
    return (rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 3, shape)).astype(dtype)


# The numbers: 2e7 ones, and the sum of a million uniform values.
ones = tf.ones([20000000])
record("sum of 2e7 ones", bits(tf.reduce_sum(ones)))
record("mean of 2e7 ones", bits(tf.reduce_mean(ones)))
np.random.seed(0)
u = np.random.uniform(size=1000000).astype(np.float32)
record("sum of 1e6 uniform", bits(tf.reduce_sum(u)))
record("mean of 1e6 uniform", bits(tf.reduce_mean(u)))
del ones

# 1e3 .. 1e8 elements, full reductions (the thread shards start at about 1.1e5 floats).
for n in [1000, 8192, 8193, 100000, 108388, 1000003, 10000000]:
    x = wide([n], n % 1000)
    record(f"sum of {n} wide values", bits(tf.reduce_sum(x)))
    record(f"mean of {n} wide values", bits(tf.reduce_mean(x)))
record("sum of 1e8 x 0.1", bits(tf.reduce_sum(tf.fill([100000000], 0.1))))
record("sum of range(1e8) as float32", bits(tf.reduce_sum(tf.range(100000000, dtype=tf.float32))))

# Rows, columns, middle dims, more than three runs, keepdims.
m = wide([300, 1000], 1)
record("rows (axis 1)", bits(tf.reduce_sum(m, axis=1)))
record("columns (axis 0)", bits(tf.reduce_sum(m, axis=0)))
record("columns of 15 rows", bits(tf.reduce_sum(wide([15, 37], 2), axis=0)))
record("columns of 16 rows", bits(tf.reduce_sum(wide([16, 37], 3), axis=0)))
record("rows longer than 8192", bits(tf.reduce_sum(wide([20, 9000], 4), axis=1)))
record("keepdims", bits(tf.reduce_sum(m, axis=-1, keepdims=True)))
t3 = wide([6, 50, 40], 5)
record("3-D middle (axis 1)", bits(tf.reduce_sum(t3, axis=1)))
record("3-D outer and inner (axes 0, 2)", bits(tf.reduce_sum(t3, axis=[0, 2])))
record("3-D inner two (axes 1, 2)", bits(tf.reduce_sum(t3, axis=[1, 2])))
t4 = wide([4, 5, 6, 7], 6)
record("4-D axes 0, 2 (transposed)", bits(tf.reduce_sum(t4, axis=[0, 2])))
record("4-D axes 1, 3 (transposed)", bits(tf.reduce_sum(t4, axis=[1, 3])))
record("size-1 dims joined", bits(tf.reduce_sum(wide([3, 1, 40, 1, 5], 7), axis=[1, 2])))
record("mean of rows", bits(tf.reduce_mean(m, axis=1)))
record("mean of columns", bits(tf.reduce_mean(m, axis=0)))

# float64, products, extremes.
d = wide([2000, 300], 8, np.float64)
record("float64 full", bits(tf.reduce_sum(d)))
record("float64 rows", bits(tf.reduce_sum(d, axis=1)))
record("float64 columns", bits(tf.reduce_sum(d, axis=0)))
record("float64 mean", bits(tf.reduce_mean(d)))
near1 = (1 + 0.01 * np.random.RandomState(9).standard_normal([400, 500])).astype(np.float32)
record("prod full", bits(tf.reduce_prod(near1)))
record("prod rows", bits(tf.reduce_prod(near1, axis=1)))
record("prod columns", bits(tf.reduce_prod(near1, axis=0)))
record("prod float64", bits(tf.reduce_prod(near1.astype(np.float64), axis=1)))
record("max columns", bits(tf.reduce_max(m, axis=0)))
record("min full", bits(tf.reduce_min(m)))

# Adversarial values: huge and tiny together, cancellation, NaN and inf, signed zeros, denormals.
big = np.ones(40000, np.float32)
big[::1000] = 1e30
big[500::1000] = -1e30
record("huge and tiny", bits(tf.reduce_sum(big)))
cancel = np.tile(np.array([1e8, 1.0, -1e8, 1e-3], np.float32), 50000)
record("cancellation", bits(tf.reduce_sum(cancel)))
record("cancellation in rows", bits(tf.reduce_sum(cancel.reshape(200, 1000), axis=1)))
spikes = np.arange(1000, dtype=np.float32)
spikes[[3, 500]] = [np.inf, -np.inf]
record("inf and -inf", bits(tf.reduce_sum(spikes)))
spikes[7] = np.nan
record("max with NaN", bits(tf.reduce_max(spikes)))
record("min with NaN", bits(tf.reduce_min(spikes)))
zeros = np.zeros(40, np.float32)
zeros[::2] = -0.0
record("max of signed zeros", bits(tf.reduce_max(zeros)))
record("min of signed zeros", bits(tf.reduce_min(-zeros)))
record("max of [-0, 0] and [0, -0]", [bits(tf.reduce_max([-0.0, 0.0])), bits(tf.reduce_max([0.0, -0.0]))])
record("denormals read as zero", bits(tf.reduce_sum(tf.constant([1.5e-38, -1.4e-38, 1e-40]))))
record("sum of -0", bits(tf.reduce_sum(tf.constant([-0.0, -0.0]))))

# Integers wrap around; their sums do not depend on the order.
ints = np.arange(-50000, 150000, dtype=np.int32) * 40000
record("int32 sum wraps", tf.reduce_sum(ints))
record("int32 mean in 64 bits", tf.reduce_mean(ints))
record("int8 sum wraps", tf.reduce_sum(tf.constant([100, 100, 100], tf.int8)))
record("uint8 prod wraps", tf.reduce_prod(tf.constant([16, 16, 3], tf.uint8)))
record("int64 prod wraps", tf.reduce_prod(tf.constant([2**40, 2**30], tf.int64)))


@tf.function
def reductions(x):
    return tf.reduce_sum(x), tf.reduce_mean(x, axis=0), tf.reduce_sum(x, axis=1), tf.reduce_max(x)


r = reductions(m)
record("in tf.function", [bits(v) for v in r])
