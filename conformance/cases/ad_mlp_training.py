"""Autodiff: a 2-layer MLP trained for 20 steps in one tf.function (GradientTape, sparse softmax
cross-entropy, SGD by assign_sub): the loss at every step (and its bits), one trace, the final
weights' bits, and the training step's graph op for op."""
# conformance: live-only: the step runs MatMul and reductions, whose bits depend on the CPU and on oneDNN
import hashlib

from cases._fn_graph import graph


def bits(t):
    a = np.ascontiguousarray(np.asarray(t))
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


rng = np.random.default_rng(0)
features = tf.constant(rng.normal(size=(32, 20)).astype(np.float32))
labels = tf.constant(rng.integers(0, 10, 32).astype(np.int32))
w1 = tf.Variable(rng.normal(scale=0.3, size=(20, 16)).astype(np.float32), name="w1")
b1 = tf.Variable(np.zeros(16, np.float32), name="b1")
w2 = tf.Variable(rng.normal(scale=0.3, size=(16, 10)).astype(np.float32), name="w2")
b2 = tf.Variable(np.zeros(10, np.float32), name="b2")
params = [w1, b1, w2, b2]


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.matmul(x, w1) + b1)
        logits = tf.nn.bias_add(tf.matmul(h, w2), b2)
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    grads = tape.gradient(loss, params)
    for p, g in zip(params, grads):
        p.assign_sub(0.1 * g)
    return loss


losses = [train_step(features, labels).numpy() for _ in range(20)]
record("losses", [float(x) for x in losses])
record("loss bits", [int(np.asarray(x, np.float32).view(np.uint32)) for x in losses])
count("train_step count", train_step)
record("final weights", [bits(p.numpy()) for p in params])
record("train_step graph", graph(train_step.get_concrete_function(features, labels)))
