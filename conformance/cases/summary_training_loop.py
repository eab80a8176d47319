"""Whole program: a summary-writing training loop. A linear model trained by gradient descent in
a tf.function, each step logging the loss (scalar), the weights (histogram) and a note (text)
at a tf.Variable step, summaries every other step through record_if; the event files as
TensorBoard's own loader reads them (tags, steps, values), the losses, trace count and graph."""
# conformance: live-only: the step runs MatMul and a mean, whose bits depend on the CPU and on oneDNN
import glob
import os
import shutil
import tempfile

from tensorboard.backend.event_processing import event_file_loader
from tensorboard.util import tensor_util

logdir = tempfile.mkdtemp(prefix="summary_loop_")
rng = np.random.RandomState(3)
xs = tf.constant(rng.uniform(-1, 1, (8, 3)).astype(np.float32))
ys = tf.constant((rng.uniform(-1, 1, (8, 1)) * 0.5).astype(np.float32))
w = tf.Variable(tf.constant([[0.5], [-0.25], [0.125]]))
b = tf.Variable(0.0)
step = tf.Variable(0, dtype=tf.int64)
writer = tf.summary.create_file_writer(logdir)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = tf.matmul(x, w) + b
        loss = tf.reduce_mean(tf.square(pred - y))
    gw, gb = tape.gradient(loss, [w, b])
    w.assign_sub(0.25 * gw)
    b.assign_sub(0.25 * gb)
    with writer.as_default(step=step):
        with tf.summary.record_if(tf.equal(step % 2, 0)):
            tf.summary.scalar("loss", loss)
            tf.summary.histogram("weights", w, buckets=5)
            tf.summary.text("note", tf.strings.as_string(loss))
    step.assign_add(1)
    return loss


losses = []
for _ in range(6):
    losses.append(train_step(xs, ys))
record("losses", losses)
record("weights", w)
count("train_step traces", train_step)
cf = train_step.get_concrete_function(xs, ys)
record("ops", sorted(n.op for n in cf.graph.as_graph_def().node))
writer.flush()
rows = []
for fn in sorted(glob.glob(os.path.join(logdir, "*"))):
    for e in event_file_loader.EventFileLoader(fn).Load():
        for v in e.summary.value:
            rows.append([e.step, v.tag, tensor_util.make_ndarray(v.tensor).tolist(),
                         v.metadata.plugin_data.plugin_name])
record("events", rows)
shutil.rmtree(logdir, ignore_errors=True)
