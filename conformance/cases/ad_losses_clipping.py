"""Autodiff, losses and clipping: tf.nn.softmax_cross_entropy_with_logits, tf.nn.l2_loss,
tf.linalg.global_norm, tf.clip_by_norm, tf.clip_by_global_norm and tf.math.divide_no_nan build
TF's graphs op for op with TF's values, eagerly and in a tf.function; and the acceptance case: the
2-layer MLP trained for 20 steps with its gradients clipped by global norm (one tf.function,
GradientTape, sparse softmax cross-entropy, SGD by assign_sub) gives TF's loss at every step,
TF's global norms and final weights, with one trace."""
# conformance: live-only: the losses and the training step run MatMul, exp/log and reductions, whose bits depend on the CPU and on oneDNN
import hashlib

from cases._fn_graph import graph


def bits(t):
    a = np.ascontiguousarray(np.asarray(t))
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


rng = np.random.default_rng(5)
x = tf.constant(rng.normal(size=(6, 5)).astype(np.float32))
y = tf.constant(rng.normal(size=(5,)).astype(np.float32))
labels = tf.nn.softmax(tf.constant(rng.normal(size=(6, 5)).astype(np.float32)))



def xent(a, b):
    return tf.nn.softmax_cross_entropy_with_logits(labels=a, logits=b)


def l2(a):
    return tf.nn.l2_loss(a)


def gnorm(a, b):
    return tf.linalg.global_norm([a, b])


def clip_norm(a):
    return tf.clip_by_norm(a, 1.5)


def clip_norm_axes(a):
    return tf.clip_by_norm(a, 0.5, axes=[1])


def clip_global(a, b):
    return tf.clip_by_global_norm([a, b], 2.0)


def div_no_nan(a, b):
    return tf.math.divide_no_nan(a, b)


# (Named functions: TF's AutoGraph warns that it cannot transform a lambda.)
functions = [
    ("softmax_cross_entropy_with_logits", xent, (labels, x)),
    ("l2_loss", l2, (x,)),
    ("global_norm", gnorm, (x, y)),
    ("clip_by_norm", clip_norm, (x,)),
    ("clip_by_norm axes", clip_norm_axes, (x,)),
    ("clip_by_global_norm", clip_global, (x, y)),
    ("divide_no_nan", div_no_nan, (x, tf.round(x))),
]
for label, fn, args in functions:
    record(label + " eagerly", [bits(v) for v in tf.nest.flatten(fn(*args))])
    f = tf.function(fn)
    record(label + " in a tf.function", [bits(v) for v in tf.nest.flatten(f(*args))])
    record(label + " graph", graph(f.get_concrete_function(*args)))

features = tf.constant(rng.normal(size=(32, 20)).astype(np.float32))
targets = tf.constant(rng.integers(0, 10, 32).astype(np.int32))
w1 = tf.Variable(rng.normal(scale=0.6, size=(20, 16)).astype(np.float32), name="w1")
b1 = tf.Variable(np.zeros(16, np.float32), name="b1")
w2 = tf.Variable(rng.normal(scale=0.6, size=(16, 10)).astype(np.float32), name="w2")
b2 = tf.Variable(np.zeros(10, np.float32), name="b2")
params = [w1, b1, w2, b2]


@tf.function
def train_step(inputs, y_true):
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.matmul(inputs, w1) + b1)
        logits = tf.nn.bias_add(tf.matmul(h, w2), b2)
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=logits))
    grads = tape.gradient(loss, params)
    clipped, norm = tf.clip_by_global_norm(grads, 1.0)
    for p, g in zip(params, clipped):
        p.assign_sub(0.5 * g)
    return loss, norm


steps = [train_step(features, targets) for _ in range(20)]
record("clipped losses", [float(loss) for loss, _ in steps])
record("clipped loss bits", [int(np.asarray(loss, np.float32).view(np.uint32)) for loss, _ in steps])
record("global norms", [float(norm) for _, norm in steps])
count("train_step count", train_step)
record("final weights", [bits(p.numpy()) for p in params])
