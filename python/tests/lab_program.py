"""The lab's exercises through tfscope.lab, with one backend: `python lab_program.py tf OUT.json`
(real TensorFlow 2.21: run it under the oracle's Python) or `... tfscope OUT.json`. Writes what
each tool returned as JSON; the seed's print/tf.print lines go to stdout/stderr as they happen."""
import json
import os
import sys
import tempfile

import numpy as np

backend, out_path = sys.argv[1], sys.argv[2]
if backend == "tf":
    import tensorflow as tf
else:
    import tfscope as tf
from tfscope import lab  # noqa: E402

res = {}


# 1. the seed's ledger: scaled(a,2) scaled(b,2) scaled(c,2) scaled(c,3)
@tf.function
def scaled(x, factor):
    print("TRACE", x.shape, factor)       # Python, during tracing
    tf.print("RUN", tf.shape(x), factor)  # graph operation
    return x * factor


a = tf.constant([1, 2], dtype=tf.int32)
b = tf.constant([8, 9], dtype=tf.int32)
c = tf.constant([1, 2, 3, 4], dtype=tf.int32)
probe = lab.RetraceProbe(scaled)
sys.stdout.flush()
for x, f in ((a, 2), (b, 2), (c, 2), (c, 3)):
    probe(x, f)
    sys.stdout.flush()
res["probe"] = {"calls": probe.calls, "traces": probe.traces, "per_call": probe.per_call(),
                "report": probe.report(), "self_check": probe.self_check()}

# 2. trace_and_inspect: a graph with a captured variable
w = tf.Variable([[1.0], [2.0]])


@tf.function
def affine(x):
    return tf.matmul(x, w) + 1.0


cf, report = lab.trace_and_inspect(affine, tf.TensorSpec([None, 2], tf.float32))
res["inspect"] = report.to_dict()


# 3. stabilize: one trace for every length
def centered_py(x):
    return x - tf.reduce_mean(x)


centered = tf.function(centered_py)
stable = lab.stabilize(centered, [tf.TensorSpec([None], tf.float32)])
sp = lab.RetraceProbe(stable)
for n in (2, 3, 5):
    sp(tf.ones([n]))
res["stabilize"] = {"traces": sp.traces, "calls": sp.calls}
up = lab.RetraceProbe(centered)
for n in (2, 3, 5):
    up(tf.ones([n]))
res["unstabilized"] = {"traces": up.traces}


# 4. autograph_diff: if and for on tensors
@tf.function
def sum_even(items):
    s = tf.constant(0)
    for c in items:
        if c % 2 == 0:
            s += c
    return s


d = lab.autograph_diff(sum_even)
res["autograph"] = {"diff_has_if": "ag__.if_stmt" in d["converted"],
                    "diff_has_for": "ag__.for_stmt" in d["converted"],
                    "diff_lines": len(d["diff"].splitlines()),
                    "same_as_tfscope": d.get("same_as_tfscope")}

# 5./6. the small MLP (Dense 16 -> 64 relu -> 10, Glorot-uniform weights as a Keras Dense layer
# starts): SavedModel round trip and TFLite dynamic range
rng = np.random.default_rng(7)


def glorot(fan_in, fan_out):
    limit = np.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-limit, limit, [fan_in, fan_out]).astype(np.float32)


w1 = tf.Variable(glorot(16, 64))
b1 = tf.Variable(np.zeros([64], np.float32))
w2 = tf.Variable(glorot(64, 10))


@tf.function(input_signature=[tf.TensorSpec([1, 16], tf.float32)])
def mlp(x):
    return tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2)


probes = [[rng.standard_normal([1, 16]).astype(np.float32)] for _ in range(8)]
with tempfile.TemporaryDirectory() as tmp:
    rt = lab.roundtrip_savedmodel(mlp, probes, os.path.join(tmp, "sm"))
res["roundtrip"] = {"exact": rt["exact"], "max_abs_delta": rt["max_abs_delta"],
                    "files": rt["files"], "signatures": rt["signatures"],
                    "tfscope": {k: v for k, v in rt.get("tfscope", {}).items() if k != "report"}}
lite = lab.convert_tflite_dynamic(mlp, probes)
res["tflite"] = {"max_abs_delta": lite["max_abs_delta"],
                 "tfscope": {k: v for k, v in lite.get("tfscope", {}).items()
                             if k != "int8_model"}}
with open(out_path, "w") as f:
    json.dump(res, f, indent=1, default=str)
