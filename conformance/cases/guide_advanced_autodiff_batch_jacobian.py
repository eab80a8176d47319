"""TF's "Advanced automatic differentiation" guide, "Batch Jacobian": the full Jacobian of
two elu layers (tf.Module dense layers with fixed weights in place of Keras's), its (batch,
batch) patches, its sum and einsum diagonal against tape.batch_jacobian (the guide's
BatchNormalization variant left out: Keras)."""


class Dense(tf.Module):
    def __init__(self, w, activation, name=None):
        super().__init__(name=name)
        self.kernel = tf.Variable(w, name="kernel")
        self.bias = tf.Variable(tf.zeros([w.shape[1]]), name="bias")
        self.activation = activation

    def __call__(self, x):
        return self.activation(tf.matmul(x, self.kernel) + self.bias)


def weights(rows, cols, lo=-0.5, hi=0.7):
    return np.linspace(lo, hi, rows * cols, dtype=np.float32).reshape(rows, cols)


x = tf.constant(weights(7, 5, -1.0, 1.0))
layer1 = Dense(weights(5, 8), tf.nn.elu)
layer2 = Dense(weights(8, 6, -0.3, 0.4), tf.nn.elu)
with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
    tape.watch(x)
    y = layer1(x)
    y = layer2(y)
record("y.shape", y.shape)
j = tape.jacobian(y, x)
record("j.shape", j.shape)
jt = tf.transpose(j, [1, 0, 3, 2])
lim = tf.reduce_max(abs(jt))
jt = tf.pad(jt, [[0, 0], [1, 1], [0, 0], [1, 1]], constant_values=-lim)
s = jt.shape
record("patches", tf.reshape(jt, [s[0] * s[1], s[2] * s[3]]).shape)
j_sum = tf.reduce_sum(j, axis=2)
print(j_sum.shape)
j_select = tf.einsum('bxby->bxy', j)
print(j_select.shape)
jb = tape.batch_jacobian(y, x)
record("jb.shape", jb.shape)
error = tf.reduce_max(abs(jb - j_sum))
assert error < 1e-3
record("batch_jacobian", [jb, j_select])
