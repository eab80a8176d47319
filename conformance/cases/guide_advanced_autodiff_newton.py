"""TF's "Advanced automatic differentiation" guide, "Example: Hessian": the Hessian of a
two-layer module (tf.Module dense layers with fixed weights in place of Keras's) and one Newton
step through tf.linalg.solve."""


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
layer1 = Dense(weights(5, 8), tf.nn.relu)
layer2 = Dense(weights(8, 6, -0.3, 0.4), tf.nn.relu)
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        x = layer1(x)
        x = layer2(x)
        loss = tf.reduce_mean(x**2)
    g = t1.gradient(loss, layer1.kernel)
h = t2.jacobian(g, layer1.kernel)
print(f'layer.kernel.shape: {layer1.kernel.shape}')
print(f'h.shape: {h.shape}')
n_params = tf.reduce_prod(layer1.kernel.shape)
g_vec = tf.reshape(g, [n_params, 1])
h_mat = tf.reshape(h, [n_params, n_params])
eps = 1e-3
eye_eps = tf.eye(h_mat.shape[0]) * eps
update = tf.linalg.solve(h_mat + eye_eps, g_vec)
_ = layer1.kernel.assign_sub(tf.reshape(update, layer1.kernel.shape))
record("after a Newton step", layer1.kernel)

