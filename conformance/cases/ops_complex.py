"""tf.complex64 and tf.complex128 as TF's guides and tests use them: constants from Python complex
numbers and numpy arrays, how they print (str and repr), tf.complex, tf.math.real/imag/abs/conj/
angle, AddV2/Sub/Mul/RealDiv bit for bit (random operands of 2**-20..2**20 across whole Eigen
packets and the remainder, broadcasting), Python numbers beside a complex tensor, tf.cast both
ways (TF's warning when the imaginary part goes), Equal, Neg; tracing: a complex64 TensorSpec, a
retrace on complex64 -> complex128, the graph's nodes; TF's graph-time TypeError for ops that take
no complex (Relu, Less: the text up to the list of allowed values, whose entries are
known_differences.md's)."""
import numpy as np

rng = np.random.default_rng(16)


def operands(n, dtype):
    real = np.float32 if dtype == np.complex64 else np.float64
    def part():
        e = rng.integers(-20, 20, size=n).astype(real)
        return (rng.standard_normal(n).astype(real) * np.asarray(2.0, real) ** e).astype(real)
    return (part() + 1j * part()).astype(dtype)


record("constant 1+2j", tf.constant(1 + 2j))
record("constant complex64", tf.constant(1 + 2j, dtype=tf.complex64))
record("constant list", tf.constant([1 + 2j, 3.5 - 1j, 0j]))
record("constant of numpy", tf.constant(np.array([1 + 2j, -0.5j], np.complex64)))
record("str scalar", str(tf.constant(1 + 2j)))
record("str vector", str(tf.constant([1 + 2j, 3.5 - 1j], dtype=tf.complex64)))
record("repr scalar", repr(tf.constant(1.5 - 2j, dtype=tf.complex64)))
record("repr matrix", repr(tf.constant([[1 + 2j, 3.25 - 1j], [0j, 1e10 + 1j]], tf.complex64)))
record("dtype facts", (tf.complex64.is_complex, tf.complex64.is_floating, tf.complex64.real_dtype,
                       tf.complex128.real_dtype, tf.complex64.as_datatype_enum,
                       tf.complex128.as_datatype_enum, repr(tf.complex64)))
record("tf.complex float32", tf.complex(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])))
record("tf.complex float64", tf.complex(tf.constant([1.0], tf.float64), tf.constant([3.0], tf.float64)))
record("tf.complex broadcast", tf.complex(tf.constant([[1.0], [2.0]]), tf.constant([3.0, 4.0, 5.0])))
attempt("tf.complex mixed types", lambda: tf.complex(tf.constant([1.0]), tf.constant([1.0], tf.float64)))

for dt in (np.complex64, np.complex128):
    name = np.dtype(dt).name
    z = tf.constant(operands(67, dt))
    w = tf.constant(operands(67, dt))
    record(name + " real imag", (tf.math.real(z), tf.math.imag(z)))
    record(name + " abs", tf.math.abs(z))
    record(name + " angle", tf.math.angle(z))
    record(name + " conj", tf.math.conj(z))
    record(name + " add sub", (z + w, z - w))
    record(name + " mul", z * w)
    record(name + " div", z / w)
    for n in (1, 3, 5, 7):
        record(name + " div of %d" % n, tf.math.truediv(z[:n], w[:n]))
    record(name + " div by a scalar", z / w[0])
    record(name + " neg", -z[:9])
    record(name + " equal", tf.equal(z[:5], tf.concat([z[:2], w[2:5]], 0)))

z = tf.constant([3 + 4j, -1 - 2j], dtype=tf.complex64)
record("real of float", tf.math.real(tf.constant([1.0, 2.0])))
record("imag of float", tf.math.imag(tf.constant([1.0, 2.0])))
record("angle of float", tf.math.angle(tf.constant([-1.0, 2.0])))
record("plus python int", z + 1)
record("plus python complex", z + 1j)
record("times python float", 2.5 * z)
record("cast float32 to complex64", tf.cast(tf.constant([1.5, -2.0]), tf.complex64))
record("cast int32 to complex128", tf.cast(tf.constant([7, -3]), tf.complex128))
record("cast complex64 to float32", tf.cast(z, tf.float32))
record("cast complex64 to int32", tf.cast(z, tf.int32))
record("cast complex64 to complex128", tf.cast(z, tf.complex128))
attempt("complex plus float", lambda: z + tf.constant([1.0, 2.0]))


@tf.function
def double(x):
    return x * 2


call("complex64 call", double, z)
call("complex64 again", double, tf.constant([1j, 2j], tf.complex64))
call("complex128 retraces", double, tf.constant([1j, 2j], tf.complex128))
record("tracing count", double.experimental_get_tracing_count())
cf = double.get_concrete_function(tf.TensorSpec([2], tf.complex64))
record("structured_input_signature", cf.structured_input_signature)
record("output", repr(cf.structured_outputs))
record("TensorSpec repr", repr(tf.TensorSpec([None, 3], tf.complex64, name="z")))


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def polar(r, theta):
    c = tf.complex(r * tf.math.tanh(theta), r * tf.math.sigmoid(theta))
    return tf.math.abs(c), tf.math.real(c * tf.math.conj(c))


call("polar", polar, tf.constant([1.0, 2.0]), tf.constant([0.0, 0.5]))
record("polar nodes", [[n.name, n.op, list(n.input)] for n in
                       polar.get_concrete_function().graph.as_graph_def().node])


def prefix_of(fn):
    """The error's type and its text up to the allowed-values list."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the fact recorded
        return type(e).__name__, str(e).split(" not in list of allowed values")[0].splitlines()[-1]
    return None


@tf.function
def relu(x):
    return tf.nn.relu(x)


@tf.function
def less(x):
    return x < x


record("relu on complex64 in a function", prefix_of(lambda: relu(z)))
record("less on complex64 in a function", prefix_of(lambda: less(z)))
