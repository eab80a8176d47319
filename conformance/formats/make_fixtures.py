"""Writes the small TF 2.21 fixtures that tests/savedmodel and tests/lite read.

Run with the oracle interpreter from the repository root:
  /work/oracle-venv/bin/python conformance/formats/make_fixtures.py [OUT_DIR]
OUT_DIR defaults to conformance/formats/fixtures. Every fixture is deterministic (seeded), so a
rerun reproduces the committed bytes unless TensorFlow's writers changed.
"""
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import tensorflow as tf

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "fixtures")


def bundle_tensors():
    """The tensors of the raw checkpoint fixture; tests/savedmodel writes the same ones."""
    return {
        "a/float": np.array([[1.0, -2.5, 3.25], [0.0, 1e-3, -7.0]], dtype=np.float32),
        "b/int32": np.array([1, -2, 2147483647], dtype=np.int32),
        "c/int64_scalar": np.array(-9000000000, dtype=np.int64),
        "d/double": np.array([0.5, -1.0 / 3.0], dtype=np.float64),
        "e/bool": np.array([True, False, True], dtype=np.bool_),
        "f/uint8": np.arange(5, dtype=np.uint8),
        "g/half": np.array([1.0, -0.5], dtype=np.float16),
        "h/empty": np.zeros((0, 4), dtype=np.float32),
        "i/string": np.array([b"hello", b"", b"tensor bundle"], dtype=object),
        "j/int8": np.array([-128, 0, 127], dtype=np.int8),
    }


def write_raw_checkpoint(prefix):
    t = bundle_tensors()
    names = sorted(t)
    tf.raw_ops.SaveV2(
        prefix=prefix,
        tensor_names=names,
        shape_and_slices=[""] * len(names),
        tensors=[tf.constant(t[n]) if t[n].dtype != object else tf.constant(list(t[n]))
                 for n in names])


class Tiny(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
        self.b = tf.Variable([0.5, -0.5], name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def __call__(self, x):
        return {"y": tf.matmul(x, self.w) + self.b}


class Mlp(tf.Module):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(1234)
        self.w1 = tf.Variable(rng.normal(0, 0.2, (64, 32)).astype(np.float32), name="w1")
        self.b1 = tf.Variable(rng.normal(0, 0.1, (32,)).astype(np.float32), name="b1")
        self.w2 = tf.Variable(rng.normal(0, 0.2, (32, 10)).astype(np.float32), name="w2")
        self.b2 = tf.Variable(rng.normal(0, 0.1, (10,)).astype(np.float32), name="b2")

    @tf.function(input_signature=[tf.TensorSpec([None, 64], tf.float32, name="x")])
    def __call__(self, x):
        h = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)
        return tf.matmul(h, self.w2) + self.b2


def write_tflite(path, module, quantize):
    conv = tf.lite.TFLiteConverter.from_concrete_functions(
        [module.__call__.get_concrete_function()], module)
    if quantize:
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
    with open(path, "wb") as f:
        f.write(conv.convert())


def main():
    os.makedirs(OUT, exist_ok=True)
    ckpt = os.path.join(OUT, "bundle")
    shutil.rmtree(ckpt, ignore_errors=True)
    os.makedirs(ckpt)
    write_raw_checkpoint(os.path.join(ckpt, "ckpt"))

    sm = os.path.join(OUT, "tiny_savedmodel")
    shutil.rmtree(sm, ignore_errors=True)
    tf.saved_model.save(Tiny(), sm)

    mlp = Mlp()
    write_tflite(os.path.join(OUT, "mlp_float.tflite"), mlp, quantize=False)
    write_tflite(os.path.join(OUT, "mlp_dynamic.tflite"), mlp, quantize=True)
    for root, _, files in os.walk(OUT):
        for f in sorted(files):
            p = os.path.join(root, f)
            print(f"{os.path.getsize(p):8d} {os.path.relpath(p, OUT)}")


if __name__ == "__main__":
    main()
