"""TF's "Advanced automatic differentiation" guide, its tape-control sections as the guide runs
them: stop_recording, reset, stop_gradient, a custom_gradient that clips,
higher-order gradients, and the input-gradient regularisation (the guide's Keras Dense replaced by
a tf.Module dense layer with fixed weights). Printed lines as the guide prints them. (Several tapes at once:
guide_advanced_autodiff_two_tapes.)"""

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as t:
    x_sq = x * x
    with t.stop_recording():
        y_sq = y * y
    z = x_sq + y_sq
grad = t.gradient(z, {'x': x, 'y': y})
print('dz/dx:', grad['x'])
print('dz/dy:', grad['y'])
record("stop_recording", grad)

x = tf.Variable(2.0)
y = tf.Variable(3.0)
reset = True
with tf.GradientTape() as t:
    y_sq = y * y
    if reset:
        t.reset()
    z = x * x + y_sq
grad = t.gradient(z, {'x': x, 'y': y})
print('dz/dx:', grad['x'])
print('dz/dy:', grad['y'])
record("reset", grad)

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as t:
    y_sq = y**2
    z = x**2 + tf.stop_gradient(y_sq)
grad = t.gradient(z, {'x': x, 'y': y})
print('dz/dx:', grad['x'])
print('dz/dy:', grad['y'])
record("stop_gradient", grad)


@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward


v = tf.Variable(2.0)
with tf.GradientTape() as t:
    output = clip_gradients(v * v)
print(t.gradient(output, v))

x = tf.Variable(1.0)
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        y = x * x * x
    dy_dx = t1.gradient(y, x)
d2y_dx2 = t2.gradient(dy_dx, x)
print('dy_dx:', dy_dx.numpy())
print('d2y_dx2:', d2y_dx2.numpy())


class Dense(tf.Module):
    def __init__(self, w, activation, name=None):
        super().__init__(name=name)
        self.kernel = tf.Variable(w, name="kernel")
        self.bias = tf.Variable(tf.zeros([w.shape[1]]), name="bias")
        self.activation = activation

    def __call__(self, x):
        return self.activation(tf.matmul(x, self.kernel) + self.bias)


x = tf.constant(np.linspace(-1.0, 1.0, 35, dtype=np.float32).reshape(7, 5))
layer = Dense(np.linspace(-0.5, 0.7, 50, dtype=np.float32).reshape(5, 10), tf.nn.relu)
with tf.GradientTape() as t2:
    with tf.GradientTape(watch_accessed_variables=False) as t1:
        t1.watch(x)
        y = layer(x)
        out = tf.reduce_sum(layer(x)**2)
    g1 = t1.gradient(out, x)
    g1_mag = tf.norm(g1)
dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
record("input-gradient regularisation", [g1_mag, [var.shape for var in dg1_mag], dg1_mag])
record("trainable_variables", [v.name for v in layer.trainable_variables])
