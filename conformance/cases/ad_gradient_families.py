"""Autodiff, the second set of gradient families: tape.gradient inside a tf.function builds TF's
gradient graph op for op (names in "gradient_tape/<forward scope>/", types, inputs), and the
gradients' bits match TF's eagerly and in the function (which runs the graph grappler makes of
it: constant folding materializes BroadcastGradientArgs, folds multi-output nodes and an AddN's
constants, Reshapes to their input's shape go; softmax's function bits are
ad_softmax_function_bits'): Softmax and LogSoftmax; the array ops
(Transpose, ConcatV2, Pack, Unpack, Slice, StridedSlice, Tile, BroadcastTo); the math ops
(Relu6, Pow with a tensor and a scalar exponent, Abs, Erf, Log1p, Reciprocal, DivNoNan); the
Max/Min reductions (ties shared); Prod (over an axis, all, keepdims); BatchMatMulV2 with and without a broadcast batch; gelu (Erfc);
the dense cross-entropy; and Sum/Mean over a batch known only when the function runs."""
# conformance: live-only: the gradients run MatMul, Softmax, exp/log and reductions, whose bits depend on the CPU and on oneDNN
import hashlib

from cases._fn_graph import graph


def bits(t):
    if t is None:
        return None
    a = np.ascontiguousarray(t.numpy())
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


rng = np.random.default_rng(11)


def f32(*shape, lo=-2.0, hi=2.0):
    return tf.constant(rng.uniform(lo, hi, shape).astype(np.float32))


def softmax_body(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.nn.softmax(x) * x) + tf.reduce_sum(tf.nn.log_softmax(x) * x)
    return tape.gradient(loss, x)


def array_body(x, y):
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        c = tf.concat([x, y], axis=0)
        u0, u1, u2 = tf.unstack(x)
        terms = [
            tf.reduce_sum(tf.transpose(x) * 1.5),
            tf.reduce_sum(c * c),
            tf.reduce_sum(tf.stack([x, y]) * 2.0),
            tf.reduce_sum(u0 * u1 + u2),
            tf.reduce_sum(tf.slice(c, [1, 0], [3, 2])),
            tf.reduce_sum(c[1:5:2, ::-1] ** 2),
            tf.reduce_sum(tf.tile(x, [2, 1]) ** 2),
            tf.reduce_sum(tf.broadcast_to(u0, [3, 4]) * x),
        ]
        loss = tf.add_n(terms)
    return tape.gradient(loss, [x, y])


def math_body(x, p):
    with tf.GradientTape() as tape:
        tape.watch([x, p])
        loss = tf.reduce_sum(tf.nn.relu6(x * 4.0) + tf.pow(p, x) + tf.abs(x) + tf.math.erf(x)
                             + tf.math.reciprocal(p) + tf.math.divide_no_nan(x, p)
                             + tf.math.log1p(p) + tf.pow(p, 2.0))
    return tape.gradient(loss, [x, p])


def reduce_body(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = (tf.reduce_sum(tf.reduce_max(x, axis=1) * 2.0) + tf.reduce_sum(tf.reduce_min(x, axis=0))
                + tf.reduce_max(x))
    return tape.gradient(loss, x)


def prod_body(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = (tf.reduce_sum(tf.reduce_prod(x, axis=1)) + tf.reduce_prod(x * 0.5)
                + tf.reduce_sum(tf.reduce_prod(x, axis=0, keepdims=True)))
    return tape.gradient(loss, x)


def bmm_body(a, b, c):
    with tf.GradientTape() as tape:
        tape.watch([a, b, c])
        loss = tf.reduce_sum(tf.matmul(a, b)) + tf.reduce_sum(tf.matmul(a, c, transpose_b=True))
    return tape.gradient(loss, [a, b, c])


def gelu_xent_body(x, labels):
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = tf.nn.gelu(x)
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels, h))
    return tape.gradient(loss, x)


cases = [
    ("softmax", softmax_body, (f32(3, 5),)),
    ("array", array_body, (f32(3, 4), f32(3, 4))),
    ("math", math_body, (f32(3, 4), f32(3, 4, lo=0.3, hi=2.0))),
    # Rounded to quarters: Max and Min see ties, whose gradient TF shares equally.
    ("reduce", reduce_body, (tf.round(f32(4, 5) * 2.0) / 2.0,)),
    ("prod", prod_body, (f32(3, 4),)),
    ("bmm", bmm_body, (f32(2, 3, 4), f32(4, 5), f32(2, 6, 4))),
    ("gelu_xent", gelu_xent_body, (f32(4, 6), tf.nn.softmax(f32(4, 6)))),
]
for label, body, args in cases:
    fn = tf.function(body)
    grads = tf.nest.flatten(fn(*args))
    if label != "softmax":  # recorded by ad_softmax_function_bits
        record(label + " gradients in a tf.function", [bits(g) for g in grads])
    record(label + " graph", graph(fn.get_concrete_function(*args)))
    count(label + " count", fn)
    record(label + " gradients eagerly", [bits(g) for g in tf.nest.flatten(body(*args))])


# A batch known only when the function runs: the reductions' gradients count it at run time
# (Shape, DynamicStitch for a partial Sum, Prod of the gathered dims for Mean).
@tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
def dynamic_body(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_mean(tf.reduce_sum(x * x, axis=1)) + tf.reduce_mean(x)
    return tape.gradient(loss, x)


record("dynamic graph", graph(dynamic_body.get_concrete_function()))
# The gradient of x * x over [None, 4]: grappler finds Shape(x) broadcast with itself, so the
# Sums over no axes and their Reshapes go and the last AddN sums (truediv_1 + mul) + mul.
record("dynamic gradients", bits(dynamic_body(f32(5, 4))))
