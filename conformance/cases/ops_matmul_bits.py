"""Ops: float32 tf.matmul bit for bit, against the kernel TF 2.21 runs on this machine."""
# conformance: live-only: TF's float32 MatMul sums in the order of the kernel it picks for the CPU and its settings (oneDNN or Eigen, AVX-512 or AVX2, the intra-op threads)
#
# Products are recorded as a hash of their bytes, because the suite's 1e-6 float tolerance would
# hide a different order. Where tfscope does not claim TF's bits (see _tf_kernels.py), each product
# records instead whether it is within the rounding-error bound of the exact sum,
# |c - sum a_i b_i| <= k 2^-23 sum |a_i b_i|, which TF's own result always is.
import hashlib
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_tf_kernels", os.path.join(os.path.dirname(__file__), "_tf_kernels.py"))
_kernels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_kernels)
CLAIMED = _kernels.matmul_bits_claimed()


def data(shape, seed):
    """Deterministic inputs without a random generator: integers hashed onto [-10, 10]."""
    i = np.arange(int(np.prod(shape)), dtype=np.int64)
    return (((i * 2654435761 + seed * 40503) % 2003 - 1001) / 97.0).astype(np.float32).reshape(shape)


def within_bound(c, a, b, **kw):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if kw.get("transpose_a") or kw.get("adjoint_a"):
        a = np.swapaxes(a, -1, -2)
    if kw.get("transpose_b") or kw.get("adjoint_b"):
        b = np.swapaxes(b, -1, -2)
    exact, mag = np.matmul(a, b), np.matmul(np.abs(a), np.abs(b))
    k = a.shape[-1]
    return bool(np.all(np.abs(np.asarray(c, np.float64) - exact) <= k * 2.0**-23 * mag))


def bits(c, a, b, **kw):
    if not CLAIMED:
        return f"within the error bound: {within_bound(c, a, b, **kw)}"
    arr = np.ascontiguousarray(c.numpy())
    return f"{arr.dtype}{list(arr.shape)} sha256 {hashlib.sha256(arr.tobytes()).hexdigest()[:16]}"


def product(label, a_shape, b_shape, **kw):
    a, b = data(a_shape, 1), data(b_shape, 2)
    record(label, bits(tf.matmul(tf.constant(a), tf.constant(b), **kw), a, b, **kw))


# The order made visible: a 2^24 in each row of ones, and 2^24 + 1 rounds back to 2^24, so each
# sum says which ones were added to the big value and which were summed apart (TF: oneDNN's
# sgemm cuts 2 x 385 in k blocks [0, 193), [193, 385): 2^24 + 192; its AVX2 kernel also sums even
# and odd k apart; Eigen's gemv for 1 x 385 sums blocks of 16).
big = np.ones([2, 600], np.float32)
big[:, 0] = 2.0**24
for label, a, b in [("2x385 k blocks", big[:, :385], np.ones([385, 2], np.float32)),
                    ("1x385 vector", big[:1, :385], np.ones([385, 2], np.float32)),
                    ("batched 2x600", big[None], np.ones([1, 600, 2], np.float32))]:
    c = tf.matmul(a, b)
    record(label, c if CLAIMED else bits(c, a, b))

product("k 300", [4, 300], [300, 16])
product("k 600", [8, 600], [600, 64])
product("k 784 (MLP layer, batch 64)", [64, 784], [784, 256])
product("transpose_a", [784, 8], [784, 64], transpose_a=True)
product("both transposed", [1000, 33], [17, 1000], transpose_a=True, transpose_b=True)
product("transpose_b, 16 rows", [16, 100], [17, 100], transpose_b=True)
product("transpose_b, 8 rows", [8, 100], [17, 100], transpose_b=True)
product("vector x matrix (MLP layer, batch 1)", [1, 784], [784, 256])
product("vector x matrix transpose_b", [1, 784], [256, 784], transpose_b=True)
product("matrix x vector transpose_a", [784, 64], [784, 1], transpose_a=True)
product("matrix x vector", [64, 790], [790, 1])
product("dot product", [1, 1000], [1000, 1])
product("k in the thousands", [8, 3000], [3000, 8])
product("short and wide (k sharded over threads)", [2, 600], [600, 1000])
product("1 x 200 x 9000 (output blocks over threads)", [1, 200], [200, 9000])
product("odd tiles 7 x 33 x 13", [7, 33], [33, 13])
product("large 300 x 700 x 50", [300, 700], [700, 50])
product("batched k 600", [4, 8, 600], [4, 600, 16])
product("batched broadcast k 784", [2, 1, 8, 784], [3, 784, 32])
product("batched adjoint_b k 600", [4, 8, 600], [4, 16, 600], adjoint_b=True)
product("batched k 1100", [2, 8, 1100], [2, 1100, 16])
product("batch of small products", [5, 8, 8], [5, 8, 8])
product("batch of small products, adjoints", [3, 9, 37], [3, 9, 9], adjoint_a=True, adjoint_b=True)
product("batch of matrix x vector", [3, 38, 103], [3, 103, 1])


@tf.function
def dense(x, w):
    return tf.matmul(x, w)


x, w = data([64, 784], 3), data([784, 256], 4)
record("graph: k 784", bits(dense(tf.constant(x), tf.constant(w)), x, w))
record("graph: vector x matrix", bits(dense(tf.constant(x[:1]), tf.constant(w)), x[:1], w))


@tf.function
def gram(x):
    return tf.matmul(x, tf.transpose(x))


# TF's grappler folds the Transpose into MatMul's transpose_b before the graph runs, which picks
# another kernel (and order) where TF runs oneDNN.
g = data([8, 100], 5)
record("graph: x @ transpose(x), folded to transpose_b", bits(gram(tf.constant(g)), g, g.T))
graph_ops("graph: x @ transpose(x) keeps its Transpose", gram.get_concrete_function(tf.constant(g)))
