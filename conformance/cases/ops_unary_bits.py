"""Ops: the elementwise float kernels bit for bit. TF 2.21 evaluates a float tensor in whole AVX
packets (8 floats, 4 doubles) with Eigen's vectorised functions and the last n % 8 (n % 4)
elements with its scalar ones, under flush-to-zero/denormals-are-zero; the two paths round
differently, so the lengths below put the same values on both. Results are recorded as a hash of
their bytes (NaNs made one NaN: TF's own NaN payloads differ between its loops) plus a few values,
eagerly and in a tf.function. The float32 packets of rsqrt, reciprocal and erfc (so gelu) start
from the CPU's estimate instructions, whose tables differ between Intel and AMD: those records
carry the CPU vendor in their label."""
# conformance: live-only: TF's packet erfc (so gelu) starts from RCPPS, whose estimate table differs between Intel and AMD CPUs
import hashlib


def cpu_vendor():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("vendor_id"):
                return line.split(":")[1].strip()
    except OSError:
        pass
    return "unknown"


VENDOR = cpu_vendor()


def bits(t):
    a = np.ascontiguousarray(t.numpy())
    a = np.where(np.isnan(a), np.array(np.nan, a.dtype), a)
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


def inputs(dtype, seed):
    """Values over the whole range: random bit patterns (every exponent, denormals, NaNs),
    uniform ranges around the functions' branch points, huge and tiny magnitudes, specials."""
    rng = np.random.default_rng(seed)
    ubits = np.uint32 if dtype == np.float32 else np.uint64
    top = 2**32 if dtype == np.float32 else 2**63
    parts = [
        rng.integers(0, top, 3000, dtype=np.uint64).astype(ubits).view(dtype),
        rng.uniform(-120, 100, 3000),
        rng.uniform(-10, 10, 3000),
        rng.uniform(-1.5, 1.5, 3000),
        np.exp(rng.uniform(-110, 90, 2000)) * rng.choice([-1, 1], 2000),
        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-39, -1e-39, 1e-45, -1e-45, 1.1754944e-38,
                  3.4e38, -3.4e38, 1e-310, -1e-310, 88.72, 88.723, 89.0, -87.0, -87.5, -103.9,
                  -104.5, 87.01, 7.9, -7.9, 16.63, 17.72, -17.72, 0.7071068, 1.4142135, 0.5,
                  -0.5, 1.5, 2.5, -2.5, 9.0, -9.0, 11.0, 27.9, 709.7, 709.9, -745.0, 1e300]),
    ]
    with np.errstate(over="ignore", invalid="ignore"):
        return np.concatenate([np.asarray(p).astype(dtype) for p in parts])


UNARY = [
    ("exp", tf.exp), ("log", tf.math.log), ("log1p", tf.math.log1p), ("expm1", tf.math.expm1),
    ("sqrt", tf.sqrt), ("sigmoid", tf.sigmoid), ("tanh", tf.tanh), ("erf", tf.math.erf),
    ("softplus", tf.nn.softplus), ("elu", tf.nn.elu), ("selu", tf.nn.selu), ("relu", tf.nn.relu),
    ("relu6", tf.nn.relu6), ("leaky_relu", tf.nn.leaky_relu), ("square", tf.square),
    ("negative", tf.negative), ("abs", tf.abs), ("floor", tf.floor), ("ceil", tf.math.ceil),
    ("round", tf.round), ("sign", tf.sign), ("pow 3", lambda x: tf.pow(x, 3.0)),
    ("gelu approximate", lambda x: tf.nn.gelu(x, approximate=True)),
]
# float32 packets start from RCPPS/RSQRTPS (double packets divide): per CPU kind.
ESTIMATED = [("rsqrt", tf.math.rsqrt), ("reciprocal", tf.math.reciprocal), ("erfc", tf.math.erfc),
             ("gelu", tf.nn.gelu)]

@tf.function
def several(t):
    # (Pow by a constant is not here: TF's grappler rewrites it in a graph, ops_graph_rewrite_bits.)
    return [tf.exp(t), tf.math.log(t), tf.sigmoid(t), tf.tanh(t), tf.nn.softplus(t), tf.nn.relu(t),
            tf.math.erf(t), tf.nn.elu(t), tf.math.log1p(t), tf.sqrt(tf.abs(t)), tf.round(t)]


for dtype in (np.float32, np.float64):
    name = np.dtype(dtype).name
    x = inputs(dtype, 1)
    # 16000 elements: a tail of 0; 8003: whole packets then a tail of 3; then the same values one
    # by one on the scalar path (chunks of 7 floats; for doubles 4 packet + 3 tail).
    whole, tail = tf.constant(x[:16000]), tf.constant(x[:8003])
    chunks = [tf.constant(x[i:i + 7]) for i in range(0, 700, 7)]
    for label, op in UNARY + ESTIMATED:
        key = f"{name} {label}" + (f" [{VENDOR}]" if (label, op) in ESTIMATED and dtype == np.float32 else "")
        y = op(whole)
        record(f"{key}: 16000 elements", bits(y))
        record(f"{key}: 8003 elements", bits(op(tail)))
        record(f"{key}: chunks of 7", bits(tf.concat([op(c) for c in chunks], 0)))
        vals = y.numpy()[3000:3003]
        record(f"{key}: values", [float(v) for v in vals])

    for i, y in enumerate(several(tail)):
        record(f"{name} tf.function output {i}: 8003 elements", bits(y))

    # Binary: pow of two tensors, and products/quotients of denormals (flushed to zero in TF).
    y = inputs(dtype, 2)[:8003]
    record(f"{name} pow(x, y)", bits(tf.pow(tail, tf.constant(y))))
    record(f"{name} pow(|x|, y / 8)", bits(tf.pow(tf.abs(tail), tf.constant(y / dtype(8)))))
    record(f"{name} x * y", bits(tail * tf.constant(y)))
    record(f"{name} x / y", bits(tail / tf.constant(y)))
    record(f"{name} maximum(x, y)", bits(tf.maximum(tail, tf.constant(y))))
    record(f"{name} minimum(x, 0)", bits(tf.minimum(tail, 0.0)))
    # numpy bounds: TF's eager conversion caches Python scalars by value, so a Python -0.0 can
    # come back as a cached +0.0.
    record(f"{name} clip_by_value(x, -0.0, 0.0)",
           bits(tf.clip_by_value(tail, np.array(-0.0, dtype), np.array(0.0, dtype))))
    tiny = tf.constant(np.array([1e-39, -1e-39, 2e-38, 1e-310, 3.0], dtype))
    record(f"{name} denormals * 1, * 0.5, + 0", [float(v) for v in
           np.concatenate([(tiny * 1.0).numpy(), (tiny * 0.5).numpy(), (tiny + 0.0).numpy()])])

# One large tensor, split over TF's intra-op threads (blocks of whole packets).
big = np.tile(inputs(np.float32, 3), 8)[:100003]
for label, op in (("exp", tf.exp), ("sigmoid", tf.sigmoid), ("tanh", tf.tanh), ("log", tf.math.log)):
    record(f"float32 {label}: 100003 elements", bits(op(tf.constant(big))))
