"""TF's "Advanced automatic differentiation" guide, its Jacobian sections as the guide runs them:
a scalar source, a tensor source (checked against the gradient), the Hessian of a two-layer
module (its Newton step: guide_advanced_autodiff_newton; batch Jacobians:
guide_advanced_autodiff_batch_jacobian) (the guide's Keras Dense layers replaced by
tf.Module dense layers with fixed weights)."""


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


x = tf.linspace(-10.0, 10.0, 200 + 1)
delta = tf.Variable(0.0)
with tf.GradientTape() as tape:
    y = tf.nn.sigmoid(x + delta)
dy_dx = tape.jacobian(y, delta)
print(y.shape)
print(dy_dx.shape)
record("scalar source", dy_dx[95:106])

x = tf.constant(weights(7, 5, -1.0, 1.0))
layer = Dense(weights(5, 10), tf.nn.relu)
with tf.GradientTape(persistent=True) as tape:
    y = layer(x)
record("y.shape", y.shape)
record("kernel.shape", layer.kernel.shape)
j = tape.jacobian(y, layer.kernel)
record("j.shape", j.shape)
g = tape.gradient(y, layer.kernel)
print('g.shape:', g.shape)
j_sum = tf.reduce_sum(j, axis=[0, 1])
delta = tf.reduce_max(abs(g - j_sum)).numpy()
assert delta < 1e-3
print('delta:', delta)

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
record("hessian", [n_params, h_mat])
