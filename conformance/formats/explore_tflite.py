"""Prints what TF 2.21's TFLiteConverter writes for the ops tfscope's converter will emit, float
and with dynamic-range quantization (Optimize.DEFAULT, no dataset): operator codes and versions,
options, tensor types and quantization. The findings are written up in NOTES.md.

  /work/oracle-venv/bin/python conformance/formats/explore_tflite.py [LITE_TOOL]

With LITE_TOOL (build-fmt/tests/lite/lite_tool) it prints tfscope's dump of each model.
"""
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import tensorflow as tf

TOOL = sys.argv[1] if len(sys.argv) > 1 else None
rng = np.random.default_rng(5)


def const(*shape):
    return tf.constant(rng.normal(0, 0.2, shape).astype(np.float32))


class Mlp(tf.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.w1, self.b1 = tf.Variable(const(n_in, n_hidden)), tf.Variable(const(n_hidden))
        self.w2, self.b2 = tf.Variable(const(n_hidden, n_out)), tf.Variable(const(n_out))
        self.spec = tf.TensorSpec([None, n_in], tf.float32)

    def fn(self):
        @tf.function(input_signature=[self.spec])
        def f(x):
            return tf.matmul(tf.nn.relu(tf.matmul(x, self.w1) + self.b1), self.w2) + self.b2
        return f


class ManyOps(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(const(64, 32))
        self.b = tf.Variable(const(32))
        self.m = tf.Variable(const(32, 48))

    @tf.function(input_signature=[tf.TensorSpec([None, 64], tf.float32)])
    def f(self, x):
        h = tf.nn.gelu(tf.matmul(x, self.w) + self.b)           # FULLY_CONNECTED, GELU
        h = tf.nn.tanh(h) * 2.0 - tf.nn.sigmoid(h) / 3.0         # TANH, MUL, LOGISTIC, DIV, SUB
        h = tf.nn.relu6(h) + tf.reduce_mean(h, axis=1, keepdims=True)  # RELU6, MEAN, ADD
        h = tf.concat([h, tf.transpose(tf.transpose(h))], axis=1)     # CONCATENATION, TRANSPOSE
        h = tf.reshape(h, [-1, 8, 8])                            # RESHAPE
        g = tf.matmul(h, h, transpose_b=True)                    # BATCH_MATMUL
        return tf.nn.softmax(tf.reshape(g, [-1, 64]))            # SOFTMAX


class Rank3Dense(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(const(64, 32))

    @tf.function(input_signature=[tf.TensorSpec([None, 5, 64], tf.float32)])
    def f(self, x):
        return tf.einsum("bti,io->bto", x, self.w)


class ConstBatchMatMul(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(const(4, 64, 32))

    @tf.function(input_signature=[tf.TensorSpec([4, 3, 64], tf.float32)])
    def f(self, x):
        return tf.matmul(x, self.w)


def convert(fn, module, quantize, **flags):
    conv = tf.lite.TFLiteConverter.from_concrete_functions([fn.get_concrete_function()], module)
    if quantize:
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
    for k, v in flags.items():
        setattr(conv, k, v)
    return conv.convert()


def main():
    from tensorflow.lite.python import schema_py_generated as S
    names = {v: k for k, v in vars(S.BuiltinOperator).items() if not k.startswith("_")}
    mlp, small = Mlp(64, 32, 10), Mlp(16, 8, 4)
    many, rank3, bmm = ManyOps(), Rank3Dense(), ConstBatchMatMul()
    cases = [
        ("mlp float", mlp.fn(), mlp, False, {}),
        ("mlp dynamic", mlp.fn(), mlp, True, {}),
        ("mlp dynamic, per-channel off for dense",
         mlp.fn(), mlp, True, {"_experimental_disable_per_channel_quantization_for_dense_layers": True}),
        ("mlp dynamic, old quantizer",
         mlp.fn(), mlp, True, {"experimental_new_dynamic_range_quantizer": False}),
        ("small mlp (all weights < 1024) dynamic", small.fn(), small, True, {}),
        ("many ops float", many.f, many, False, {}),
        ("many ops dynamic", many.f, many, True, {}),
        ("rank-3 dense dynamic", rank3.f, rank3, True, {}),
        ("constant batch_matmul dynamic", bmm.f, bmm, True, {}),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for title, fn, module, q, flags in cases:
            data = convert(fn, module, q, **flags)
            m = S.Model.GetRootAsModel(data, 0)
            codes = [f"{names[max(c.BuiltinCode(), c.DeprecatedBuiltinCode())]} v{c.Version()}"
                     for c in (m.OperatorCodes(i) for i in range(m.OperatorCodesLength()))]
            print(f"== {title}: {len(data)} bytes; codes: {', '.join(codes)}")
            if TOOL:
                path = os.path.join(tmp, "m.tflite")
                with open(path, "wb") as f:
                    f.write(data)
                out = subprocess.run([TOOL, "dump", path], capture_output=True, text=True)
                print(out.stdout + out.stderr)


if __name__ == "__main__":
    main()
