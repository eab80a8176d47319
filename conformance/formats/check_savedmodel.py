"""SavedModel conformance: tfscope re-serializes TF 2.21's saved_model.pb byte for byte, and what
tfscope writes TF loads and runs with the same results.

Also: SavedModels that tfscope builds from scratch (`savedmodel_tool write-demo`, the TF1 form
with Const weights, and with resource variables restored from a tfscope-written TensorBundle
through saver_def) load with tf.saved_model.load and give outputs bit-identical to TF running the
same math, with the variables' values exact.

  /work/oracle-venv/bin/python conformance/formats/check_savedmodel.py build-fmt/tests/savedmodel/savedmodel_tool

For several tf.Module models saved by tf.saved_model.save: `savedmodel_tool resave` reads the
directory and writes saved_model.pb and variables/ again; the script checks the bytes equal TF's
and that tf.saved_model.load on the copy gives bit-identical outputs for every signature.
"""
import os
import shutil
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import tensorflow as tf

TOOL = sys.argv[1] if len(sys.argv) > 1 else "build-fmt/tests/savedmodel/savedmodel_tool"


class Mlp(tf.Module):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(3)
        self.w1 = tf.Variable(rng.normal(size=(8, 16)).astype(np.float32))
        self.b1 = tf.Variable(np.zeros(16, np.float32))
        self.w2 = tf.Variable(rng.normal(size=(16, 4)).astype(np.float32))
        self.steps = tf.Variable(0, dtype=tf.int64, trainable=False)
        self.label = tf.Variable("mlp")

    @tf.function(input_signature=[tf.TensorSpec([None, 8], tf.float32, name="x")])
    def __call__(self, x):
        return tf.matmul(tf.nn.relu(tf.matmul(x, self.w1) + self.b1), self.w2)

    @tf.function(input_signature=[tf.TensorSpec([None, 8], tf.float32),
                                  tf.TensorSpec([], tf.float32)])
    def scaled(self, x, s):
        return {"out": self.__call__(x) * s, "label": tf.identity(self.label)}


class Branchy(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1.0, 2.0, 3.0])

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def f(self, x):
        if tf.reduce_sum(x) > 0:
            y = x * self.v
        else:
            y = x - self.v
        for _ in tf.range(3):
            y = y + 1.0
        return y


def probe(spec, rng):
    shape = [2 if d is None else d for d in spec.shape.as_list()]
    return tf.constant(rng.normal(size=shape).astype(spec.dtype.as_numpy_dtype))


def main():
    failures = 0
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        for name, module, sigs in [
            ("mlp", Mlp(), None),
            ("mlp_two_signatures", Mlp(), "two"),
            ("control_flow", Branchy(), None),
        ]:
            src, dst = os.path.join(tmp, name), os.path.join(tmp, name + "_tfscope")
            signatures = None
            if sigs == "two":
                signatures = {"serving_default": module.__call__.get_concrete_function(),
                              "scaled": module.scaled.get_concrete_function()}
            elif isinstance(module, Branchy):
                signatures = module.f.get_concrete_function()
            tf.saved_model.save(module, src, signatures=signatures)
            subprocess.run([TOOL, "resave", src, dst], check=True)
            checks = {}
            for rel in ("saved_model.pb", "variables/variables.index",
                        "variables/variables.data-00000-of-00001"):
                with open(os.path.join(src, rel), "rb") as a, open(os.path.join(dst, rel), "rb") as b:
                    checks[f"{rel} byte-identical"] = a.read() == b.read()
            shutil.copy(os.path.join(src, "fingerprint.pb"), os.path.join(dst, "fingerprint.pb"))
            a, b = tf.saved_model.load(src), tf.saved_model.load(dst)
            same = True
            for key, fn in a.signatures.items():
                kwargs = {k: probe(s, rng) for k, s in fn.structured_input_signature[1].items()}
                ra, rb = fn(**kwargs), b.signatures[key](**kwargs)
                same &= all(np.array_equal(ra[k].numpy(), rb[k].numpy()) for k in ra)
            checks["TF loads tfscope's copy, outputs bit-identical"] = same
            for what, ok in checks.items():
                print(f"{'ok  ' if ok else 'FAIL'} {name}: {what}")
                failures += not ok
        w = np.array([[0.5 * r - 0.25 * c + 0.125 for c in range(3)] for r in range(4)], np.float32)
        b = np.array([0.5, -0.25, 0.0], np.float32)
        x = tf.constant(rng.normal(size=(100, 4)).astype(np.float32))
        want = tf.function(lambda v: tf.nn.relu(tf.nn.bias_add(tf.matmul(v, w), b)),
                           autograph=False)(x).numpy()
        for form in ("const", "variables"):
            d = os.path.join(tmp, "demo_" + form)
            subprocess.run([TOOL, "write-demo", d, form], check=True)
            loaded = tf.saved_model.load(d)
            y = loaded.signatures["serving_default"](x=x)["y"].numpy()
            checks = {"TF loads it, outputs bit-identical to TF's own graph on 100 inputs":
                      np.array_equal(y, want)}
            if form == "variables":
                got = {v.name: v.numpy() for v in loaded.variables}
                checks["variables restored exactly from tfscope's bundle"] = (
                    sorted(got) == ["W:0", "b:0"] and np.array_equal(got["W:0"], w)
                    and np.array_equal(got["b:0"], b))
            for what, ok in checks.items():
                print(f"{'ok  ' if ok else 'FAIL'} tfscope-built SavedModel ({form}): {what}")
                failures += not ok
    print("all savedmodel checks passed" if not failures else f"{failures} savedmodel checks FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
