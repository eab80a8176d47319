"""Autodiff: tape.gradient inside a tf.function builds TF's gradient graph op for op (node names
in "gradient_tape/<forward scope>/", types, inputs) for each op family, and the gradients' bits
match TF's, in the function and eagerly: a dense layer (MatMul, BiasAdd, Relu, Mul, Sum with
variables read under the tape), broadcasting AddV2/Sub/Mul/RealDiv (static shapes: Sum and
Reshape where an operand was broadcast, none where not), the unary math ops, Mean, Reshape,
Cast, Maximum/Minimum and SelectV2."""
# conformance: live-only: the gradients run MatMul and reductions, whose bits depend on the CPU and on oneDNN
import hashlib

from cases._fn_graph import graph


def bits(t):
    if t is None:
        return None
    a = np.ascontiguousarray(t.numpy())
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


rng = np.random.default_rng(7)


def f32(*shape, lo=-2.0, hi=2.0):
    return tf.constant(rng.uniform(lo, hi, shape).astype(np.float32))


w = tf.Variable(f32(5, 4), name="w")
b = tf.Variable(f32(4), name="b")


def dense_body(x):
    with tf.GradientTape() as tape:
        y = tf.matmul(x, w)
        z = tf.nn.bias_add(y, b)
        r = tf.nn.relu(z)
        loss = tf.reduce_sum(r * tf.tanh(y))
    return tape.gradient(loss, [w, b])


def broadcast_body(x, y, z):
    with tf.GradientTape() as tape:
        tape.watch([x, y, z])
        loss = tf.reduce_sum((x + y) * z - x / y + (z - x) * 3.0)
    return tape.gradient(loss, [x, y, z])


def unary_body(x, p):
    with tf.GradientTape() as tape:
        tape.watch([x, p])
        a = tf.exp(x) + tf.math.log(p) + tf.square(x) + tf.sqrt(p) + tf.math.rsqrt(p)
        c = -tf.tanh(x) * tf.sigmoid(x) + tf.identity(x)
        d = tf.reshape(tf.cast(a * c, tf.float64), [6, 2])
        loss = tf.reduce_mean(d, axis=0) * 2.0
        loss = tf.reduce_sum(tf.cast(loss, tf.float32), keepdims=True)
    return tape.gradient(loss, [x, p])


def select_body(x, y, c):
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        m = tf.maximum(x, y) * tf.minimum(x, 0.5)
        loss = tf.reduce_sum(tf.where(c, m, y * 2.0))
    return tape.gradient(loss, [x, y])


cases = [
    ("dense", dense_body, (f32(8, 5),)),
    ("broadcast", broadcast_body, (f32(3, 4), f32(4, lo=0.5, hi=2.0), f32(3, 1))),
    ("unary", unary_body, (f32(3, 4), f32(3, 4, lo=0.2, hi=3.0))),
    ("select", select_body, (f32(4, 3), f32(4, 3), tf.constant(rng.uniform(size=(4, 3)) > 0.5))),
]
for label, body, args in cases:
    fn = tf.function(body)
    grads = fn(*args)
    record(label + " gradients in a tf.function", [bits(g) for g in grads])
    record(label + " graph", graph(fn.get_concrete_function(*args)))
    count(label + " count", fn)
    record(label + " gradients eagerly", [bits(g) for g in body(*args)])
