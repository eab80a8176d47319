"""Ops: float32 convolution, pooling and einsum bit for bit, against the kernels TF 2.21 runs on this
machine: tf.nn.conv2d (SAME, VALID, strides, dilations, explicit padding, 1x1, a filter as large
as the image, groups, a 4x32x32x16 batch), conv1d, depthwise_conv2d, conv2d_transpose,
max_pool2d, avg_pool2d and tf.einsum's transformer contractions, eagerly and in a tf.function (where grappler fuses Conv2D + BiasAdd +
Relu into _FusedConv2D)."""
# conformance: live-only: TF's float32 convolutions sum in the order of the kernel it picks for the CPU and its settings (oneDNN or Eigen, AVX-512 or AVX2, the intra-op threads)
#
# Results are recorded as a hash of their bytes where tfscope claims TF's bits (_tf_kernels.py),
# else whether they are within the rounding-error bound of the exact sum,
# |y - sum x_i w_i| <= k 2^-23 sum |x_i w_i| (k the number of terms), which TF's own are.
import hashlib
import importlib.util
import os

_spec = importlib.util.spec_from_file_location("_tf_kernels", os.path.join(os.path.dirname(__file__), "_tf_kernels.py"))
_kernels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_kernels)


def data(shape, seed):
    """Deterministic inputs without a random generator: integers hashed onto [-10, 10]."""
    i = np.arange(int(np.prod(shape)), dtype=np.int64)
    return (((i * 2654435761 + seed * 40503) % 2003 - 1001) / 97.0).astype(np.float32).reshape(shape)


def bits(y):
    a = np.ascontiguousarray(y.numpy())
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


def within_bound(y, fn64, fn64_abs, k):
    exact, mag = fn64(), fn64_abs()
    return bool(np.all(np.abs(np.asarray(y.numpy(), np.float64) - exact) <= k * 2.0**-23 * mag + 1e-30))


def conv_reference(x, w, strides, padding, dilations=(1, 1)):
    """float64 Conv2D of NHWC x and HWIO w (one group), padding 'SAME', 'VALID' or pairs."""
    n, h, wd, c = x.shape
    kh, kw, ci, co = w.shape
    eh, ew = (kh - 1) * dilations[0] + 1, (kw - 1) * dilations[1] + 1
    if padding == "VALID":
        pads = ((0, 0), (0, 0))
    elif padding == "SAME":
        oh, ow = -(-h // strides[0]), -(-wd // strides[1])
        ph = max(0, (oh - 1) * strides[0] + eh - h)
        pw = max(0, (ow - 1) * strides[1] + ew - wd)
        pads = ((ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2))
    else:
        pads = padding
    xp = np.pad(x.astype(np.float64), ((0, 0), pads[0], pads[1], (0, 0)))
    oh = (xp.shape[1] - eh) // strides[0] + 1
    ow = (xp.shape[2] - ew) // strides[1] + 1
    out = np.zeros((n, oh, ow, co))
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dilations[0], j * dilations[1]
            patch = xp[:, r0:r0 + (oh - 1) * strides[0] + 1:strides[0], c0:c0 + (ow - 1) * strides[1] + 1:strides[1], :]
            out += patch @ w[i, j].astype(np.float64)
    return out


def conv_case(label, kind, x_shape, w_shape, strides, padding, dilations=(1, 1), explicit=None):
    x, w = data(x_shape, 1), data(w_shape, 2)
    y = tf.nn.conv2d(tf.constant(x), tf.constant(w), list(strides), explicit or padding, dilations=list(dilations))
    if _kernels.conv_bits_claimed(kind):
        record(label, bits(y))
        return
    pad = explicit[1:3] if explicit else padding
    k = w_shape[0] * w_shape[1] * w_shape[2]
    record(label, "within the error bound: " + str(within_bound(
        y, lambda: conv_reference(x, w, strides, pad, dilations),
        lambda: conv_reference(np.abs(x), np.abs(w), strides, pad, dilations), k)))


conv_case("conv2d SAME 3x3", "conv2d", [2, 9, 9, 3], [3, 3, 3, 4], (1, 1), "SAME")
conv_case("conv2d VALID strides 2", "conv2d", [2, 9, 9, 3], [3, 3, 3, 4], (2, 2), "VALID")
conv_case("conv2d SAME dilations 2", "conv2d", [2, 9, 9, 3], [3, 3, 3, 4], (1, 1), "SAME", (2, 2))
conv_case("conv2d explicit padding", "conv2d", [2, 9, 9, 3], [3, 3, 3, 4], (1, 2), None, explicit=[[0, 0], [1, 2], [0, 1], [0, 0]])
conv_case("conv2d 1x1", "conv2d", [2, 9, 9, 3], [1, 1, 3, 5], (1, 1), "SAME")
conv_case("conv2d 5x5 on 28x28x1", "conv2d", [8, 28, 28, 1], [5, 5, 1, 8], (1, 1), "SAME")
conv_case("conv2d 4x32x32x16 to 32", "conv2d", [4, 32, 32, 16], [3, 3, 16, 32], (1, 1), "SAME")
conv_case("conv2d 1x16x16x64 to 64 strides 2", "conv2d", [1, 16, 16, 64], [3, 3, 64, 64], (2, 2), "SAME")
conv_case("conv2d filter as large as the image", "conv2d_whole", [2, 9, 9, 3], [9, 9, 3, 5], (1, 1), "VALID")

g = tf.nn.conv2d(tf.constant(data([1, 6, 6, 4], 4)), tf.constant(data([3, 3, 2, 6], 5)), 1, "SAME")
record("conv2d grouped", bits(g) if _kernels.conv_bits_claimed("conv2d") else "grouped: not compared bit for bit")

x1, w1 = data([2, 10, 3], 1), data([3, 3, 5], 2)
y1 = tf.nn.conv1d(tf.constant(x1), tf.constant(w1), 1, "SAME")
if _kernels.conv_bits_claimed("conv2d"):
    record("conv1d", bits(y1))
else:
    record("conv1d", "within the error bound: " + str(within_bound(
        y1, lambda: conv_reference(x1[:, None], w1[None], (1, 1), "SAME")[:, 0],
        lambda: conv_reference(np.abs(x1[:, None]), np.abs(w1[None]), (1, 1), "SAME")[:, 0], 9)))


def depthwise_case(label, x_shape, w_shape, strides, padding):
    x, w = data(x_shape, 3), data(w_shape, 4)
    y = tf.nn.depthwise_conv2d(tf.constant(x), tf.constant(w), [1, strides, strides, 1], padding)
    if _kernels.conv_bits_claimed("depthwise"):
        record(label, bits(y))
        return
    m = w_shape[3]
    # depthwise as a grouped conv: channel c's filter spread over output channels c*m .. c*m+m-1
    wf = np.zeros(w_shape[:2] + [x_shape[3], x_shape[3] * m], np.float32)
    for c in range(x_shape[3]):
        wf[:, :, c, c * m:(c + 1) * m] = w[:, :, c, :]
    record(label, "within the error bound: " + str(within_bound(
        y, lambda: conv_reference(x, wf, (strides, strides), padding),
        lambda: conv_reference(np.abs(x), np.abs(wf), (strides, strides), padding), w_shape[0] * w_shape[1])))


depthwise_case("depthwise_conv2d SAME", [2, 9, 9, 3], [3, 3, 3, 2], 1, "SAME")
depthwise_case("depthwise_conv2d VALID strides 2, 16 channels", [2, 10, 10, 16], [3, 3, 16, 1], 2, "VALID")

for label, xs, ws, out, pad in [("conv2d_transpose SAME, one image", [1, 4, 4, 3], [3, 3, 2, 3], [1, 8, 8, 2], "SAME"),
                                ("conv2d_transpose SAME, 4 images of 16x16x32", [4, 16, 16, 32], [3, 3, 16, 32], [4, 32, 32, 16], "SAME")]:
    y = tf.nn.conv2d_transpose(tf.constant(data(xs, 1)), tf.constant(data(ws, 2)), out, 2, pad)
    record(label, bits(y) if _kernels.conv_bits_claimed("transpose") else "conv2d_transpose: not compared bit for bit")

for eq, sa, sb in [("bij,bjk->bik", [4, 16, 32], [4, 32, 8]), ("bhqd,bhkd->bhqk", [2, 4, 16, 8], [2, 4, 16, 8]),
                   ("bqhd,bkhd->bhqk", [2, 16, 4, 8], [2, 16, 4, 8]), ("bhqk,bkhd->bqhd", [2, 4, 16, 16], [2, 16, 4, 8]),
                   ("ij,jk->ik", [33, 65], [65, 17]), ("ij,kj->ik", [20, 30], [10, 30]), ("bi,bi->b", [8, 100], [8, 100]),
                   ("ij,jk->ki", [64, 64], [64, 64])]:
    a, b = data(sa, 1), data(sb, 2)
    y = tf.einsum(eq, tf.constant(a), tf.constant(b))
    if _kernels.einsum_bits_claimed():
        record(f"einsum {eq}", bits(y))
    else:
        exact = np.einsum(eq, a.astype(np.float64), b.astype(np.float64))
        mag = np.einsum(eq, np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
        ins, out = eq.split("->")
        sizes = dict(zip(ins.split(",")[0], sa))
        k = int(np.prod([sizes[c] for c in ins.split(",")[0] if c not in out]))  # terms per output
        record(f"einsum {eq}", "within the error bound: " + str(bool(np.all(np.abs(y.numpy().astype(np.float64) - exact) <= k * 2.0**-23 * mag))))

xt, wt = data([2, 5, 5, 8], 1), data([3, 3, 4, 8], 2)
yt = tf.nn.conv2d_transpose(tf.constant(xt), tf.constant(wt), [2, 11, 11, 4], 2, "VALID")
# the transpose is the gradient of a VALID conv: y[b, 2r + i, 2c + j, d] += x[b, r, c, :] . w[i, j, d, :]
exact, mag = np.zeros([2, 11, 11, 4]), np.zeros([2, 11, 11, 4])
for i in range(3):
    for j in range(3):
        exact[:, i:i + 9:2, j:j + 9:2, :] += xt.astype(np.float64) @ wt[i, j].astype(np.float64).T
        mag[:, i:i + 9:2, j:j + 9:2, :] += np.abs(xt).astype(np.float64) @ np.abs(wt[i, j]).astype(np.float64).T
record("conv2d_transpose VALID strides 2", bits(yt) if _kernels.conv_bits_claimed("transpose") else
       "within the error bound: " + str(bool(np.all(np.abs(yt.numpy().astype(np.float64) - exact) <= 72 * 2.0**-23 * mag))))

xp = data([2, 16, 16, 17], 8)
for label, y in [("max_pool2d 3x3 strides 2 SAME", tf.nn.max_pool2d(xp, 3, 2, "SAME")),
                 ("avg_pool2d 5x5 SAME", tf.nn.avg_pool2d(xp, 5, 1, "SAME")),
                 ("avg_pool2d 2x2 VALID", tf.nn.avg_pool2d(xp, 2, 2, "VALID")),
                 ("avg_pool2d 3x3 strides 2 SAME", tf.nn.avg_pool2d(xp, 3, 2, "SAME"))]:
    record(label, bits(y) if _kernels.conv_bits_claimed("pool") else "pooling: not compared bit for bit")


@tf.function
def block(x, w, b):
    return tf.nn.max_pool2d(tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b)), 2, 2, "VALID")


xb, wb, bb = data([4, 16, 16, 8], 5), data([3, 3, 8, 16], 6), data([16], 7)
yb = block(tf.constant(xb), tf.constant(wb), tf.constant(bb))
if _kernels.conv_bits_claimed("conv2d"):
    record("tf.function conv + bias + relu + max_pool", bits(yb))
else:
    ref = conv_reference(xb, wb, (1, 1), "SAME") + bb
    record("tf.function conv + bias + relu + max_pool", "close: " + str(bool(np.allclose(
        yb.numpy(), np.maximum(ref, 0).reshape(4, 8, 2, 8, 2, 16).max(axis=(2, 4)), rtol=1e-4, atol=1e-3))))
