"""Autodiff: the gradient of ad_gradient_families' softmax function computed in a tf.function,
bit for bit. Its graph ends in `AddN(LogSoftmax, Softmax, gradient_tape/mul_1,
gradient_tape/sub_1)`, which TF sums in that order: LogSoftmax's other consumers are all
ancestors of the AddN, so they have dropped their references and the kernel forwards input 0
(grappler's annotate_add_n_forwarding)."""
# conformance: live-only: the gradient runs Softmax, LogSoftmax and reductions, whose bits depend on the CPU and on oneDNN
import hashlib


def bits(t):
    a = np.ascontiguousarray(t.numpy())
    return f"{a.dtype}{list(a.shape)} sha256 {hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


rng = np.random.default_rng(11)
x = tf.constant(rng.uniform(-2.0, 2.0, (3, 5)).astype(np.float32))


@tf.function
def softmax_body(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.nn.softmax(x) * x) + tf.reduce_sum(tf.nn.log_softmax(x) * x)
    return tape.gradient(loss, x)


record("softmax gradient in a tf.function", bits(softmax_body(x)))
