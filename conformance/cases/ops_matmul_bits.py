"""Ops: float32 tf.matmul bit for bit. TF 2.21 sums each output in the order of its oneDNN kernels
(the sgemm's blocks of k, the matrix-vector kernels' sequential sum or dot product, BatchMatMulV2's
blocks of 512); tfscope sums in the same order. Products are recorded as a hash of their bytes,
because the suite's 1e-6 float tolerance would hide a different order."""
import hashlib


def data(shape, seed):
    """Deterministic inputs without a random generator: integers hashed onto [-10, 10]."""
    i = np.arange(int(np.prod(shape)), dtype=np.int64)
    return (((i * 2654435761 + seed * 40503) % 2003 - 1001) / 97.0).astype(np.float32).reshape(shape)


def bits(t):
    a = np.ascontiguousarray(t.numpy())
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


def product(label, a_shape, b_shape, **kw):
    a, b = tf.constant(data(a_shape, 1)), tf.constant(data(b_shape, 2))
    record(label, bits(tf.matmul(a, b, **kw)))


# The order made visible: the ones after 2^24 are lost when added to it one by one (2^24 + 1
# rounds to 2^24) and kept when summed apart. 2 x 385: the sgemm's two blocks of k, [0, 193) and
# [193, 385): 2^24 + 192. 1 x 385: a matrix-vector product, one sequential sum: 2^24. Batched
# 2 x 600: blocks of 512: 2^24 + 88.
big = np.ones([2, 600], np.float32)
big[:, 0] = 2.0**24
record("2x385 sgemm blocks", tf.matmul(big[:, :385], np.ones([385, 2], np.float32)))
record("1x385 gemv", tf.matmul(big[:1, :385], np.ones([385, 2], np.float32)))
record("batched 2x600 blocks of 512", tf.matmul(big[None], np.ones([1, 600, 2], np.float32)))

product("sgemm k 300", [4, 300], [300, 16])
product("sgemm k 600", [8, 600], [600, 64])
product("sgemm k 784 (MLP layer, batch 64)", [64, 784], [784, 256])
product("sgemm transpose_a", [784, 8], [784, 64], transpose_a=True)
product("sgemm both transposed", [1000, 33], [17, 1000], transpose_a=True, transpose_b=True)
product("sgemm transpose_b, 16 rows", [16, 100], [17, 100], transpose_b=True)
product("dot product kernel: transpose_b, 8 rows", [8, 100], [17, 100], transpose_b=True)
product("gemv axpy (MLP layer, batch 1)", [1, 784], [784, 256])
product("gemv axpy transpose_a, n 1", [784, 64], [784, 1], transpose_a=True)
product("gemv dot: 1 row, transpose_b", [1, 784], [256, 784], transpose_b=True)
product("gemv dot: n 1", [64, 790], [790, 1])
product("batched k 600", [4, 8, 600], [4, 600, 16])
product("batched broadcast k 784", [2, 1, 8, 784], [3, 784, 32])
product("batched adjoint_b k 600", [4, 8, 600], [4, 16, 600], adjoint_b=True)
product("batched k 1100", [2, 8, 1100], [2, 1100, 16])


@tf.function
def dense(x, w):
    return tf.matmul(x, w)


x, w = tf.constant(data([64, 784], 3)), tf.constant(data([784, 256], 4))
record("graph: sgemm k 784", bits(dense(x, w)))
record("graph: gemv", bits(dense(x[:1], w)))
