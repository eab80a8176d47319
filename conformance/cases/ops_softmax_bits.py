"""Ops: tf.nn.softmax and tf.nn.log_softmax bit for bit, eagerly and in tf.function. TF 2.21 runs
float32 Softmax through oneDNN's kernel where it uses oneDNN (by default on CPUs with AVX-512
VNNI/BF16, AVX-VNNI or AMX; TF_ENABLE_ONEDNN_OPTS decides otherwise), else Eigen's; LogSoftmax
and float64 always through Eigen's. Outputs are recorded as their bytes, hashed."""
# conformance: live-only: TF runs float32 Softmax through oneDNN (AVX-512 or AVX2 code) or Eigen, by the CPU and TF_ENABLE_ONEDNN_OPTS
import hashlib


def bits(t):
    a = np.ascontiguousarray(t.numpy())
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


def logits(shape, seed, scale=5.0, dtype=np.float32):
    return (np.random.RandomState(seed).standard_normal(shape) * scale).astype(dtype)


shapes = [[7], [3, 7], [8, 5], [16, 17], [64, 1000], [13, 100], [1000, 10], [2000, 5],
          [2, 8200], [3, 20000], [4, 3, 33]]
for i, shape in enumerate(shapes):
    x = logits(shape, i)
    record(f"softmax {shape}", bits(tf.nn.softmax(x)))
    record(f"log_softmax {shape}", bits(tf.nn.log_softmax(x)))
    record(f"softmax float64 {shape}", bits(tf.nn.softmax(x.astype(np.float64))))
    record(f"log_softmax float64 {shape}", bits(tf.nn.log_softmax(x.astype(np.float64))))

# Other axes: TF transposes the axis last and back.
x3 = logits([5, 6, 7], 20)
record("softmax axis 0", bits(tf.nn.softmax(x3, axis=0)))
record("softmax axis 1", bits(tf.nn.softmax(x3, axis=1)))
record("log_softmax axis -2", bits(tf.nn.log_softmax(x3, axis=-2)))

# Logits far apart: exp underflows near ln(FLT_MIN), where the two kernels' exp differ.
far = np.array([[0.0, -80.0, -86.5, -86.8, -87.0, -87.3, -87.5, -88.0, -100.0, -1e30]], np.float32)
record("softmax of far logits", [float(v).hex() for v in tf.nn.softmax(far).numpy()[0]])
record("log_softmax of far logits", [float(v).hex() for v in tf.nn.log_softmax(far).numpy()[0]])
record("softmax of equal logits", bits(tf.nn.softmax(tf.fill([10, 1000], 3.0))))
special = np.array([[1.0, 2.0, np.inf], [np.nan, 1.0, 2.0], [-np.inf, -np.inf, -np.inf],
                    [1e38, -1e38, 0.0]], np.float32)
record("softmax of inf and NaN", [[float(v).hex() for v in row] for row in tf.nn.softmax(special).numpy()])
record("log_softmax of inf and NaN",
       [[float(v).hex() for v in row] for row in tf.nn.log_softmax(special).numpy()])


@tf.function
def heads(x):
    return tf.nn.softmax(x), tf.nn.log_softmax(x), tf.nn.softmax(x, axis=0)


r = heads(logits([64, 1000], 30))
record("in tf.function", [bits(v) for v in r])
graph_ops("softmax axis 0 ops", heads.get_concrete_function(tf.TensorSpec([64, 1000], tf.float32)))
