"""tf.summary: create_file_writer, as_default(step=), scalar, histogram, text, write, flush,
record_if and set_step, eagerly and in a tf.function; what each call returns, TF's errors, the
function's graph (nodes, the histogram's cond branches), and the event files as TensorBoard's
own loader reads them (tags, steps, dtypes, shapes, values, plugin names, data classes; not the
wall times, which only have to be ordered)."""
import glob
import os
import re
import shutil
import tempfile

from tensorboard.backend.event_processing import event_file_loader

root = tempfile.mkdtemp(prefix="summary_events_")


def events(logdir):
    """Every event of every file in logdir, in file-name order, as plain values."""
    out = []
    for fn in sorted(glob.glob(os.path.join(logdir, "*"))):
        times = []
        for e in event_file_loader.EventFileLoader(fn).Load():
            times.append(e.wall_time)
            row = {"step": e.step}
            if e.HasField("file_version"):
                row["file_version"] = e.file_version
                row["integral_wall_time"] = e.wall_time == int(e.wall_time)
            for v in e.summary.value:
                arr = tf_make_ndarray(v.tensor)
                row.setdefault("values", []).append(
                    [v.tag, v.tensor.dtype, [d.size for d in v.tensor.tensor_shape.dim],
                     arr.tolist(), v.metadata.plugin_data.plugin_name,
                     v.metadata.summary_description, v.metadata.data_class])
            out.append(row)
        out.append({"wall_times_ordered": times == sorted(times)})
    return out


def tf_make_ndarray(t):
    from tensorboard.util import tensor_util
    return tensor_util.make_ndarray(t)


def file_names(logdir):
    names = sorted(os.listdir(logdir))
    pat = re.compile(r"^events\.out\.tfevents\.(\d{10})\.([^.]+(?:\.[^.]+)*)\.(\d+)\.(\d+)(.*)$")
    out = []
    for n in names:
        m = pat.match(n)
        out.append(None if m is None else [m.group(3) == str(os.getpid()), m.group(5)])
    return out


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


def library(cf):
    gd = cf.graph.as_graph_def()
    return sorted([f.signature.name.rsplit("_", 1)[0], sorted((n.name, n.op) for n in f.node_def)]
                  for f in gd.library.function)


# ---- eagerly ----
d1 = os.path.join(root, "eager")
w = tf.summary.create_file_writer(d1)
record("writer type", type(w).__name__)
record("file at creation", [file_names(d1), events(d1)])
with w.as_default():
    record("scalar step=1", tf.summary.scalar("loss", 0.5, step=1))
    attempt("scalar without a step", lambda: tf.summary.scalar("loss", 0.5))
    with tf.summary.record_if(False):
        record("record_if(False)", tf.summary.scalar("loss", 2.0, step=2))
    attempt("scalar of a vector", lambda: tf.summary.scalar("loss", [1.0, 2.0], step=1))
    attempt("step of a vector", lambda: tf.summary.scalar("loss", 1.0, step=[1, 2]))
    record("histogram buckets=4", tf.summary.histogram("h", tf.constant([1, 2, 2, 5]), step=3,
                                                       buckets=4))
    record("histogram default buckets", tf.summary.histogram("h30", [0.25, -1.5, 3.0, 3.0],
                                                             step=3))
    record("histogram one value", tf.summary.histogram("h1", [2.0, 2.0], step=3, buckets=3))
    record("histogram empty", tf.summary.histogram("h0", tf.zeros([0]), step=3, buckets=2))
    record("text", tf.summary.text("t", tf.constant(["a", "b"]), step=3))
    attempt("text of an int", lambda: tf.summary.text("t", 3, step=3))
    record("scalar with a description", tf.summary.scalar("d", 1, step=4, description="about"))
    tf.summary.experimental.set_step(7)
    record("set_step", tf.summary.scalar("s", 5))
    record("get_step", tf.summary.experimental.get_step())
    tf.summary.experimental.set_step(None)
    record("write", tf.summary.write("raw", tf.constant([1, 2], tf.int64), step=9))
record("scalar with no writer", tf.summary.scalar("loss", 1.0, step=1))
w.flush()
record("eager events", events(d1))
w.close()
record("flush after close", w.flush())
try:
    w.as_default()
    record("as_default after close", "no error")
except RuntimeError as e:  # the message holds the writer's repr, TF's class path in TF
    record("as_default after close", str(e).endswith("> is already closed"))
record("eager file names", file_names(d1))

# ---- in a tf.function ----
d2 = os.path.join(root, "fn")
w2 = tf.summary.create_file_writer(d2)


@tf.function
def logged(x, step):
    with w2.as_default(step=step):
        tf.summary.scalar("loss", x)
        tf.summary.histogram("h", [x, 2 * x, 3.0])
        tf.summary.text("t", "hello")
        tf.summary.scalar("explicit/a b", x * x, step=step + 100)
    return x


record("fn call 1", logged(tf.constant(1.5), tf.constant(3, tf.int64)))
record("fn call 2", logged(tf.constant(-0.5), tf.constant(4, tf.int64)))
count("fn traces", logged)
cf = logged.get_concrete_function(tf.constant(1.5), tf.constant(3, tf.int64))
record("fn nodes", nodes(cf))
record("fn library", library(cf))
record("fn events", events(d2))


@tf.function
def gated(x, step, on):
    with w2.as_default():
        with tf.summary.record_if(on):
            return tf.summary.scalar("gated", x, step=step)


d3 = os.path.join(root, "gated")
w2 = tf.summary.create_file_writer(d3)
record("gated on", gated(tf.constant(1.0), tf.constant(1, tf.int64), tf.constant(True)))
record("gated off", gated(tf.constant(2.0), tf.constant(2, tf.int64), tf.constant(False)))
record("gated nodes", nodes(gated.get_concrete_function(tf.constant(1.0), tf.constant(1, tf.int64),
                                                        tf.constant(True))))
record("gated events", events(d3))
record("file name suffix", file_names(d3))
shutil.rmtree(root, ignore_errors=True)

# ---- the queue: events wait until more than max_queue are queued, or a flush ----
d4 = tempfile.mkdtemp(prefix="summary_queue_")
wq = tf.summary.create_file_writer(d4, max_queue=2, flush_millis=10 ** 8)
qfile = os.path.join(d4, os.listdir(d4)[0])


def loaded():
    return len(list(event_file_loader.EventFileLoader(qfile).Load()))


seen = []
with wq.as_default(step=1):
    for i in range(4):
        tf.summary.scalar("q", float(i))
        seen.append(loaded())
    wq.flush()
    seen.append(loaded())
record("events in the file while queueing", seen)
wq.close()
shutil.rmtree(d4, ignore_errors=True)
