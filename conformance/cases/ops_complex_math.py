"""complex64/complex128 Square, reduce_sum and reduce_mean bit for bit with TF 2.21 (whole Eigen
packets and the remainder; full reductions short and long enough for Eigen's halving, inner,
outer and middle axes, keepdims), eagerly and in a tf.function. Order used: Eigen's float sums'
(eigen_reduce.h) on complex packets of 4 complex64 / 2 complex128, the parts on their own lanes;
Mean divides each sum by the count as a complex quotient (packets of outputs with
pdiv_complex, the rest with Smith's algorithm); Square is the complex product x * x."""
import numpy as np

rng = np.random.default_rng(1616)


def operands(shape, dtype):
    real = np.float32 if dtype == np.complex64 else np.float64
    n = int(np.prod(shape))
    def part():
        e = rng.integers(-12, 12, size=n).astype(real)
        return (rng.standard_normal(n).astype(real) * np.asarray(2.0, real) ** e).astype(real)
    return (part() + 1j * part()).astype(dtype).reshape(shape)


@tf.function
def traced_stats(z):
    return tf.reduce_sum(z), tf.reduce_mean(z, axis=0), tf.math.square(z)


for dt in (np.complex64, np.complex128):
    name = np.dtype(dt).name
    for n in (1, 5, 13, 37, 64, 1000, 5000):
        z = tf.constant(operands([n], dt))
        if n <= 64:
            record("%s square %d" % (name, n), tf.math.square(z))
        record("%s sum %d" % (name, n), tf.reduce_sum(z))
        record("%s mean %d" % (name, n), tf.reduce_mean(z))
    for shape, axes in (([7, 9], 0), ([7, 9], 1), ([16, 8], 0), ([16, 8], 1), ([20, 12], 0),
                        ([3, 5, 4], [0, 2]), ([3, 5, 4], 1), ([3, 5, 4], [1, 2]),
                        ([2, 3, 4, 5], [0, 2])):
        z = tf.constant(operands(shape, dt))
        label = "%s %s axis %s" % (name, shape, axes)
        record(label + " sum", tf.reduce_sum(z, axis=axes))
        record(label + " mean", tf.reduce_mean(z, axis=axes))
        record(label + " sum keepdims", tf.reduce_sum(z, axis=axes, keepdims=True))
    special = tf.constant(np.array([complex(np.inf, 1), complex(1, np.nan), complex(0, -0.0),
                                    complex(1e30, 1e30), complex(-2, 3)], dt))
    record(name + " square special", tf.math.square(special))
    record(name + " sum special", tf.reduce_sum(special))
    record(name + " empty mean", tf.reduce_mean(tf.constant(np.zeros([0], dt))))
    record(name + " empty sum rows", tf.reduce_sum(tf.constant(np.zeros([0, 3], dt)), axis=0))
    call(name + " traced", traced_stats, tf.constant(operands([9, 6], dt)))
count("traced count", traced_stats)
