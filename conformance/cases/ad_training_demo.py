"""Autodiff: the demo's `training` section (`tfscope demo --only training`) as a TF program: a
linear model trained by SGD in a tf.function that takes the step number. With a Python int `step`
every call traces (100 traces, TF's two frequent-retracing warnings, each trace's reason the new
literal); with `tf.constant(step)` one trace. The losses are the same in both loops, step by step,
and the section prints them (src/cli/demo_training.cc runs the same loop with the C++ API)."""
# conformance: live-only: the losses come from MatMul and reductions, whose bits depend on the CPU and on oneDNN
features = tf.constant([[1.0, 2.0, 0.5], [0.0, -1.0, 1.5], [2.0, 0.5, -0.5], [-1.0, 1.0, 1.0],
                        [0.5, 0.0, 2.0], [1.5, -0.5, 0.0], [-0.5, 2.0, -1.0], [1.0, 1.0, 1.0]])
targets = tf.constant([[3.0], [1.0], [2.5], [0.5], [2.0], [1.0], [1.5], [3.0]])


def make_train_step():
    w = tf.Variable(tf.zeros([3, 1]), name="w")
    b = tf.Variable(tf.zeros([1]), name="b")
    last_step = tf.Variable(0, name="last_step")

    @tf.function
    def train_step(x, y, step):
        with tf.GradientTape() as tape:
            pred = tf.matmul(x, w) + b
            loss = tf.reduce_mean(tf.square(pred - y))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.05 * gw)
        b.assign_sub(0.05 * gb)
        last_step.assign(step)
        return loss

    return train_step, last_step


buggy, buggy_last = make_train_step()
buggy_losses = [buggy(features, targets, step) for step in range(100)]
record("python-int step: losses", [float(l) for l in buggy_losses])
count("python-int step: traces", buggy)
record("python-int step: last_step", buggy_last.numpy())

fixed, fixed_last = make_train_step()
fixed_losses = [fixed(features, targets, tf.constant(step)) for step in range(100)]
record("tf.constant step: losses", [float(l) for l in fixed_losses])
count("tf.constant step: traces", fixed)
record("same losses", [float(a) == float(b) for a, b in zip(buggy_losses, fixed_losses)])
