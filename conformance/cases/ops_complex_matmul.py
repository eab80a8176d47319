"""complex64/complex128 MatMul and Sqrt bit for bit with TF 2.21 (the bits of every part recorded).
MatMul: TF's CPU kernel is Eigen's tensor contraction over Eigen's own gebp kernel for
std::complex (TF's oneDNN kernels take no complex), whose micro kernels sum each output in
different orders: shapes that put outputs in each of them (TF's columns in groups of 8, 4, 2 and
1; its rows in panels of 4 and the rows left over), transposed operands, a tf.function. A long k
is cut into slices by Eigen's blocking heuristic over the L1 data cache's size (7x300x9 in
complex128 is one slice with a 48 KiB L1d, two with 32 KiB; 6x800x10 is sliced on both), each
slice's sum added to the result. Matrix-vector products (a dimension of 1 but k) and products big
enough for TF's thread pool are not here: tfscope sums them in the one-thread order, which is not
TF's there (complex.cc). Sqrt: whole packets (Eigen's psqrt_complex) and the remainder (its
complex_sqrt), zeros of both signs, infinities and NaNs in packets and in the remainder.
Adjoints: tf.matmul(adjoint_a=) and tf.transpose(conjugate=True) (Conj, ConjugateTranspose). Exp:
bits where TF runs the C library's cexp, an error bound on complex64 packets. Errors: mixed
dtypes, a float operand, Sqrt of an integer."""
# conformance: live-only: Eigen cuts a long k into slices by the size of this machine's L1 data cache, which moves the matmul bits
import numpy as np

rng = np.random.default_rng(1617)


def operands(shape, dtype):
    real = np.float32 if dtype == np.complex64 else np.float64
    def part():
        e = rng.integers(-8, 8, size=shape).astype(real)
        return (rng.standard_normal(shape).astype(real) * np.asarray(2.0, real) ** e).astype(real)
    return (part() + 1j * part()).astype(dtype)


def bits(t):
    a = np.ascontiguousarray(np.asarray(t))
    return a.view(np.uint32 if a.dtype == np.complex64 else np.uint64).ravel().tolist()


@tf.function
def product(a, b):
    return tf.matmul(a, b)


SHAPES = ((2, 2, 2), (2, 13, 3), (3, 15, 8), (4, 13, 4), (5, 13, 5), (8, 15, 8), (4, 5, 17),
          (9, 37, 13), (12, 20, 7), (5, 64, 12), (16, 64, 16), (7, 300, 9), (6, 1, 5),
          (6, 800, 10))

for dt in (np.complex64, np.complex128):
    name = np.dtype(dt).name
    for m, k, n in SHAPES:
        a, b = operands((m, k), dt), operands((k, n), dt)
        record("%s matmul %dx%dx%d" % (name, m, k, n), bits(tf.matmul(a, b)))
    a, b = operands((5, 13), dt), operands((13, 7), dt)
    record(name + " matmul transpose_a",
           bits(tf.matmul(tf.constant(a.T.copy()), b, transpose_a=True)))
    record(name + " matmul transpose_b",
           bits(tf.matmul(a, tf.constant(b.T.copy()), transpose_b=True)))
    record(name + " matmul both transposed",
           bits(tf.matmul(a.T.copy(), b.T.copy(), transpose_a=True, transpose_b=True)))
    r = product(tf.constant(a), tf.constant(b))
    record(name + " matmul in a function", (r.dtype, r.shape, bits(r)))

    z = operands((67,), dt)
    record(name + " sqrt", bits(tf.sqrt(z)))
    record(name + " sqrt of 3", bits(tf.math.sqrt(z[:3])))
    inf, nan = np.inf, np.nan
    special = np.array([0j, complex(-0.0, 0), complex(0, -0.0), complex(-0.0, -0.0), complex(-4, 0),
                        complex(-4, -0.0), complex(4, -0.0), complex(inf, 1), complex(-inf, 1),
                        complex(inf, nan), complex(-inf, nan), complex(1, inf), complex(nan, inf),
                        complex(1, -inf), complex(nan, -inf), complex(nan, 1), complex(1, nan),
                        complex(nan, nan), complex(inf, inf), complex(-inf, -inf),
                        complex(3e38, 3e38), complex(-3e38, 1), complex(1e-30, -1e30),
                        complex(-1, 1e-30), complex(0, 2), complex(0, -2), complex(-2, -3)], dt)
    record(name + " sqrt special in packets", bits(tf.sqrt(np.concatenate([special, special[:1]]))))
    for i, v in enumerate(special):
        record(name + " sqrt special alone %d" % i, bits(tf.sqrt(np.array([v], dt))))

z = tf.constant([1 + 2j, 3 - 1j], tf.complex64)
attempt("matmul complex64 by complex128",
        lambda: tf.matmul(tf.reshape(z, [1, 2]), tf.constant([[1j], [2j]], tf.complex128)))
attempt("matmul complex64 by float32",
        lambda: tf.matmul(tf.reshape(z, [1, 2]), tf.constant([[1.0], [2.0]])))
attempt("matmul size mismatch", lambda: tf.matmul(tf.reshape(z, [1, 2]), tf.reshape(z, [1, 2])))
attempt("sqrt of int32", lambda: tf.sqrt(tf.constant([4, 9])))


# Adjoints: tf.matmul conjugates a complex operand (a Conj in its scope) and transposes it;
# tf.transpose(conjugate=True) is one ConjugateTranspose for complex, a Transpose otherwise.
a = tf.constant(operands((3, 4), np.complex64))
b = tf.constant(operands((3, 2), np.complex64))
record("matmul adjoint_a", bits(tf.matmul(a, b, adjoint_a=True)))
record("matmul adjoint_b", bits(tf.matmul(b, tf.constant(operands((5, 2), np.complex64)),
                                          adjoint_b=True)))
record("matmul adjoint of float", tf.matmul(tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 4.0]]),
                                            adjoint_b=True))
record("transpose conjugate", bits(tf.transpose(a, conjugate=True)))
record("transpose conjugate perm", bits(tf.transpose(tf.reshape(a, [3, 2, 2]), [1, 0, 2],
                                                     conjugate=True)))
record("transpose conjugate identity perm", bits(tf.transpose(a, [0, 1], conjugate=True)))
record("transpose conjugate of float", tf.transpose(tf.constant([[1.0, 2.0]]), conjugate=True))
attempt("transpose conjugate bad perm", lambda: tf.transpose(a, [0, 0], conjugate=True))


@tf.function
def adjoints(x, y):
    return tf.matmul(x, y, adjoint_a=True), tf.transpose(x, conjugate=True)


call("adjoints in a function", adjoints, a, b)
record("adjoints nodes", [[n.name, n.op, list(n.input)] for n in
                          adjoints.get_concrete_function(a, b).graph.as_graph_def().node])


# Exp: the C library's cexp in TF for complex128 and for the complex64 elements after the last
# whole packet (bits); Eigen's pexp_complex on complex64 packets, which tfscope does not
# reproduce: its values there are within 2 epsilon of |exp(z)| of the exact exponential, as TF's.
w = rng.standard_normal(67) * 4 + 1j * rng.standard_normal(67) * 30
record("complex128 exp", bits(tf.exp(w.astype(np.complex128))))
record("complex64 exp of 3", bits(tf.exp(w[:3].astype(np.complex64))))
exact = np.exp(w.astype(np.complex64).astype(np.complex256))
got = np.asarray(tf.exp(w.astype(np.complex64))).astype(np.complex256)
record("complex64 exp within 2 epsilon",
       bool((np.abs(got - exact) / np.abs(exact)).max() <= 2 * np.finfo(np.float32).eps))
attempt("exp of int32", lambda: tf.exp(tf.constant([1, 2])))
