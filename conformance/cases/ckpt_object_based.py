"""Object-based checkpoints: tf.train.Checkpoint write/save/read/restore over modules, lists, dicts and variables (the files byte for byte, their keys, the `checkpoint` state file), restore status checks and errors, restoring into variables created later (a module built on its first call inside a tf.function), and tf.train.CheckpointManager's numbering and max_to_keep."""
import gc
import hashlib
import os
import re
import tempfile

root_dir = tempfile.mkdtemp()


def files(prefix):
    """The checkpoint's files, each with a hash of its bytes."""
    d = os.path.dirname(prefix)
    base = os.path.basename(prefix)
    return sorted((f, hashlib.sha256(open(os.path.join(d, f), "rb").read()).hexdigest()[:16])
                  for f in os.listdir(d) if f.startswith(base + "."))


def rel(p):
    return None if p is None else os.path.relpath(p, root_dir)


def state(directory):
    text = open(os.path.join(directory, "checkpoint")).read()
    return re.sub(r"timestamps?: [0-9.e+]+", "timestamp: T", text)


class Dense(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0]], name="w")
        self.b = tf.Variable([0.5], name="b")


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(), Dense()]
        self.step = tf.Variable(0, dtype=tf.int64)
        self.cfg = {"scale": tf.Variable(2.0)}
        self.sizes = [3, 4]
        self.nothing = tf.Module()


net = Net()
ck = tf.train.Checkpoint(model=net, extra=tf.Variable(3.0, name="extra"))
p = ck.write(os.path.join(root_dir, "w", "ckpt"))
record("write returns", rel(p))
record("written files", files(p))
record("keys", tf.train.list_variables(p))
p1 = ck.save(os.path.join(root_dir, "s", "ckpt"))
net.step.assign(7)
net.layers[1].w.assign([[5.0, 6.0]])
p2 = ck.save(os.path.join(root_dir, "s", "ckpt"))
record("save returns", [rel(p1), rel(p2), int(ck.save_counter.numpy()), ck.save_counter.name])
record("saved files", files(p2))
record("state file", state(os.path.join(root_dir, "s")))
record("latest_checkpoint", rel(tf.train.latest_checkpoint(os.path.join(root_dir, "s"))))
record("save_counter value in the file",
       tf.train.load_variable(p2, "save_counter/.ATTRIBUTES/VARIABLE_VALUE"))

# Restoring into a fresh model: every value, the save counter too.
net2 = Net()
ck2 = tf.train.Checkpoint(model=net2, extra=tf.Variable(0.0))
status = ck2.restore(p2)
record("restored", [net2.step, net2.layers[1].w, net2.cfg["scale"], ck2.extra, ck2.save_counter])
attempt("assert_consumed", status.assert_consumed)
attempt("assert_existing_objects_matched", status.assert_existing_objects_matched)
attempt("assert_nontrivial_match", status.assert_nontrivial_match)
record("expect_partial returns the status", status.expect_partial() is status)
record("read then", ck2.read(p1) is not None)
record("read values", [net2.step, net2.layers[1].w])



def partial_restore(expect_partial):
    """A checkpoint that does not match the program; when the Checkpoint and its status go, TF
    warns about the values left unrestored unless expect_partial() was called."""
    ck3 = tf.train.Checkpoint(other=tf.Variable(0.0))
    status3 = ck3.restore(p2)
    out = []
    for check in ("assert_consumed", "assert_existing_objects_matched", "assert_nontrivial_match"):
        try:
            getattr(status3, check)()
            out.append((check, "ok"))
        except AssertionError as e:
            out.append((check, str(e)))
    if expect_partial:
        status3.expect_partial()
    return out




def restore_a_part():
    """Every Python object bound, but the checkpoint holds more: only assert_consumed fails."""
    status = tf.train.Checkpoint(extra=tf.Variable(0.0)).restore(p2)
    out = []
    for check in ("assert_consumed", "assert_existing_objects_matched", "assert_nontrivial_match"):
        try:
            getattr(status, check)()
            out.append((check, "ok"))
        except AssertionError as e:
            out.append((check, str(e)))
    status.expect_partial()
    return out


call("restore of a part of the checkpoint", restore_a_part)
call("partial restore", partial_restore, False)
call("partial restore, expect_partial", partial_restore, True)
attempt("restore with another shape",
        lambda: tf.train.Checkpoint(extra=tf.Variable([1.0, 2.0])).restore(p2))
try:
    tf.train.Checkpoint(v=tf.Variable(0.0)).restore(os.path.join(root_dir, "no", "ckpt-1"))
except Exception as e:  # the message names the path: recorded relative to the case's directory
    record("restore from a missing path", (type(e).__name__, str(e).replace(root_dir, "ROOT")))
record("restore(None) then assert_consumed",
       type(tf.train.Checkpoint().restore(None)).__name__)
attempt("a non-trackable value", lambda: tf.train.Checkpoint(x=3))


# Variables created after the restore (on the first call, inside a tf.function) get the values.
class Flexible(tf.Module):
    def __init__(self, out):
        super().__init__()
        self.out = out
        self.built = False

    def __call__(self, x):
        if not self.built:
            self.w = tf.Variable(tf.ones([x.shape[-1], self.out]), name="w")
            self.built = True
        return tf.matmul(x, self.w)


class Seq(tf.Module):
    def __init__(self):
        super().__init__()
        self.d1 = Flexible(2)

    @tf.function
    def __call__(self, x):
        return self.d1(x)


m = Seq()
m(tf.constant([[1.0, 2.0, 3.0]]))
m.d1.w.assign([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
pm = tf.train.Checkpoint(model=m).write(os.path.join(root_dir, "flex", "ckpt"))
fresh = Seq()
st = tf.train.Checkpoint(model=fresh).restore(pm)
call("fresh model's first call (builds, then restored)", fresh, tf.constant([[1.0, 1.0, 1.0]]))
record("fresh w", fresh.d1.w)
attempt("fresh: assert_consumed", st.assert_consumed)

# CheckpointManager.
v = tf.Variable(1.0)
mck = tf.train.Checkpoint(v=v)
mdir = os.path.join(root_dir, "m")
mgr = tf.train.CheckpointManager(mck, mdir, max_to_keep=2)
record("manager before", [mgr.latest_checkpoint, mgr.checkpoints])
saved = []
for i in range(3):
    v.assign_add(1.0)
    saved.append(rel(mgr.save()))
saved.append(rel(mgr.save(checkpoint_number=10)))
record("manager saves", saved)
record("manager kept", [[rel(p) for p in mgr.checkpoints], rel(mgr.latest_checkpoint)])
record("manager directory", sorted(os.listdir(mdir)))
record("manager state file", state(mdir))
record("save_counter after the manager", mck.save_counter)
mgr2 = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(0.0)), mdir, max_to_keep=3)
record("a second manager over the directory", [[rel(p) for p in mgr2.checkpoints],
                                               rel(mgr2.latest_checkpoint)])
call("collect what is left (warnings only)", lambda: [gc.collect(), None][1])
