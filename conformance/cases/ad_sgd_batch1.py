"""Autodiff: online learning, one example per step (batch 1), SGD by assign_sub, as tutorials'
per-example loops write it. Every weight's gradient is then a MatMul with k = 1 (x^T dy), which
tfscope's executor runs together with its scaling and the variable's update as one step
(executor.cc's outer_updates): the loss and every weight's bits after each step must be TF's.
Variants: the learning rate as the Mul's second operand, a read of the weight returned (held
across the update, so the update is not in place), a gradient also returned (not fused), and the
step's graph op for op."""
# conformance: live-only: the step runs MatMul and reductions, whose bits depend on the CPU and on oneDNN
import hashlib

from cases._fn_graph import graph


def bits(t):
    a = np.ascontiguousarray(np.asarray(t))
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


rng = np.random.default_rng(11)
examples = rng.normal(size=(12, 1, 40)).astype(np.float32)
targets = rng.integers(0, 10, (12, 1)).astype(np.int32)
w1 = tf.Variable(rng.normal(scale=0.3, size=(40, 33)).astype(np.float32), name="w1")
b1 = tf.Variable(np.zeros(33, np.float32), name="b1")
w2 = tf.Variable(rng.normal(scale=0.3, size=(33, 10)).astype(np.float32), name="w2")
params = [w1, b1, w2]


def loss_of(x, y):
    h = tf.nn.relu(tf.matmul(x, w1) + b1)
    return tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=tf.matmul(h, w2)))


@tf.function
def sgd_step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_of(x, y)
    g1, gb, g2 = tape.gradient(loss, params)
    w1.assign_sub(0.05 * g1)
    b1.assign_sub(0.05 * gb)
    w2.assign_sub(g2 * 0.05)  # the learning rate second
    return loss


@tf.function
def sgd_step_held(x, y):
    before = w1.read_value()
    with tf.GradientTape() as tape:
        loss = loss_of(x, y)
    grads = tape.gradient(loss, params)
    for p, g in zip(params, grads):
        p.assign_sub(0.05 * g)
    return loss, before


@tf.function
def sgd_step_returns_gradient(x, y):
    with tf.GradientTape() as tape:
        loss = loss_of(x, y)
    grads = tape.gradient(loss, params)
    for p, g in zip(params, grads):
        p.assign_sub(0.05 * g)
    return loss, grads[0]


losses = []
for i in range(12):
    losses.append(sgd_step(examples[i], targets[i]).numpy())
    if i % 4 == 3:
        record("weights after step %d" % i, [bits(p.numpy()) for p in params])
record("loss bits", [int(np.asarray(x, np.float32).view(np.uint32)) for x in losses])
count("sgd_step count", sgd_step)
loss, before = sgd_step_held(examples[0], targets[0])
record("held read", bits(before))
record("after the held step", [bits(p.numpy()) for p in params])
loss, g1 = sgd_step_returns_gradient(examples[1], targets[1])
record("returned gradient", bits(g1))
record("after the returning step", [bits(p.numpy()) for p in params])
record("sgd_step graph", graph(sgd_step.get_concrete_function(examples[0], targets[0])))
