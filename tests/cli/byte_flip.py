#!/usr/bin/env python3
"""Byte-flip campaign over real model files: damaged input must end in one clear error.

    byte_flip.py --tfscope build/tfscope [--python .venv/bin/python] [--flips N] [--seed S]

For each file -- TF-written and tfscope-written .tflite models (tfscope's CNN and depthwise-separable
models too, when tests/lite/lite_tool is built; the BERT-tiny-shaped encoder of conformance/tflite
with --python), saved_model.pb and
variables/variables.index -- N copies with one byte changed (seeded positions and values) are
read by `tfscope inspect` (text and --json) and, with --python, through the Python API
(tfscope.lite.Interpreter: allocate, invoke on zeros; tfscope.saved_model.load: every signature
called on zeros). Every run must end in success or in one error: a one-line "tfscope: error:
[component] ..." with exit status 1 from the command; one exception of a public class with a
one-line message (a graph execution error may add TF's "[[{{node x}}]]" line) and nothing on
stderr (no libprotobuf lines) from Python. A signal, a hang
(--timeout), a traceback, internal text (std::, json.exception, UnicodeDecodeError, KeyError) is a
failure. Prints counts per file and the first failures; exits 1 on any failure.
"""
import argparse
import json
import os
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INTERNAL = ("std::", "json.exception", "libprotobuf", "Traceback", "bad_alloc", "bad_cast")

WORKER = r'''
import json, os, sys, tempfile
import numpy as np
import tfscope
PUBLIC = (OSError, ValueError, TypeError, NotImplementedError, tfscope.errors.OpError)
err = tempfile.TemporaryFile()
os.dup2(err.fileno(), 2)

def zeros(shape, dtype=np.float32):
    dims = [1 if (d is None or d < 1) else int(d) for d in shape]
    n = 1
    for d in dims:
        n *= d
    if n > 1 << 20:
        return None
    return np.zeros(dims, dtype=dtype)

def tflite(path):
    tfscope.lite.inspect(path, as_json=True)
    it = tfscope.lite.Interpreter(model_path=path)
    it.allocate_tensors()
    for d in it.get_input_details():
        x = zeros(list(d["shape"]))
        if x is None:
            return
        it.set_tensor(d["index"], x)
    it.invoke()
    for d in it.get_output_details():
        it.get_tensor(d["index"])

def saved_model(path):
    m = tfscope.saved_model.load(path)
    for key, sig in m.signatures.items():
        feeds = {}
        for name, spec in sig.structured_input_signature[1].items():
            shape = spec.shape.as_list() if spec.shape.rank is not None else [1]
            x = zeros(shape, spec.dtype.as_numpy_dtype)
            if x is None:
                break
            feeds[name] = x
        else:
            sig(**feeds)

for line in sys.stdin:
    task = json.loads(line)
    err.seek(0); err.truncate()
    result = {"ok": True}
    try:
        (tflite if task["kind"] == "tflite" else saved_model)(task["path"])
    except BaseException as e:  # noqa: B902 -- every outcome is classified
        result = {"ok": False, "type": type(e).__name__, "message": str(e),
                  "public": isinstance(e, PUBLIC) and not isinstance(e, (UnicodeError, KeyError))}
    err.seek(0)
    result["stderr"] = err.read().decode("utf-8", "replace")
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
'''


class PythonWorker:
    """One Python process running tasks; restarted after a crash or a hang."""

    def __init__(self, python, timeout):
        self.python, self.timeout, self.proc = python, timeout, None

    def _start(self):
        self.proc = subprocess.Popen([self.python, "-c", WORKER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def run(self, kind, path):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        self.proc.stdin.write(json.dumps({"kind": kind, "path": path}) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            hung = self.proc.poll() is None
            self.proc.kill()
            self.proc.wait()
            code = self.proc.returncode
            self.proc = None
            return "hang" if hung else "crash (signal %d)" % -code if code < 0 else "crash (%d)" % code
        r = json.loads(line)
        if r["stderr"].strip():
            return "stderr: " + r["stderr"].strip().splitlines()[0]
        if r["ok"]:
            return None
        # A graph execution error ends with TF's node line ("\t [[{{node x}}]]"), as TF's do.
        msg = "\n".join(l for l in r["message"].strip().split("\n")
                        if not re.match(r"^\t \[\[\{\{node .*\}\}\]\]", l))
        if not r["public"] or "\n" in msg or any(s in msg for s in INTERNAL):
            return "%s: %s" % (r["type"], msg[:200])
        return None

    def close(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()


def cli_run(tfscope, args, timeout):
    """(failure or None, exit status)."""
    try:
        p = subprocess.run([tfscope, *args], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang: " + " ".join(args), None
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode == 0:
        return None, 0
    if p.returncode < 0:
        return "signal %d: %s" % (-p.returncode, " ".join(args)), p.returncode
    lines = err.splitlines()
    if p.returncode != 1 or len(lines) != 1 or not lines[0].startswith("tfscope: error: ["):
        return "exit %d, stderr %r" % (p.returncode, err[:300]), p.returncode
    if any(s in lines[0] for s in INTERNAL):
        return "internal text: " + lines[0][:300], p.returncode
    return None, p.returncode


def make_targets(tfscope, python, work):
    """(label, kind, model path, file to damage) for TF-written and tfscope-written files."""
    fixtures = os.path.join(SOURCE, "conformance", "formats", "fixtures")
    tf_sm = os.path.join(SOURCE, "tests", "savedmodel", "fixtures", "tf_mlp")
    targets = []
    for name in ("mlp_float.tflite", "mlp_dynamic.tflite"):
        p = os.path.join(work, "tf_" + name)
        shutil.copy(os.path.join(fixtures, name), p)
        targets.append(("TF " + name, "tflite", p, p))
    for flag, name in (([], "float"), (["--dynamic-range"], "dynamic")):
        p = os.path.join(work, "tfscope_%s.tflite" % name)
        subprocess.run([tfscope, "convert", tf_sm, "-o", p, *flag], check=True,
                       capture_output=True)
        targets.append(("tfscope %s.tflite" % name, "tflite", p, p))
    # Convolution models (CONV_2D, DEPTHWISE_CONV_2D, pools, hybrid per-channel filters), as
    # tests/lite/lite_tool writes them.
    tool = os.path.join(os.path.dirname(tfscope), "tests", "lite", "lite_tool")
    if os.path.exists(tool):
        models = os.path.join(work, "lite_models")
        os.makedirs(models)
        subprocess.run([tool, "write-models", models], check=True, capture_output=True)
        for name in ("cnn_dynamic", "sep_dynamic"):
            p = os.path.join(work, "tfscope_%s.tflite" % name)
            shutil.copy(os.path.join(models, name + ".tflite"), p)
            targets.append(("tfscope %s.tflite" % name, "tflite", p, p))
    # The BERT-tiny-shaped encoder (GATHER with an int8 table, DEQUANTIZE, SHAPE, STRIDED_SLICE,
    # PACK, hybrid FULLY_CONNECTED with keep_num_dims), as tfscope converts it.
    if python:
        enc = os.path.join(SOURCE, "conformance", "tflite")
        subprocess.run([python, "-c", (
            "import sys; sys.path.insert(0, sys.argv[1])\n"
            "import tfscope as tf, encoder\n"
            "m = encoder.make(tf, encoder.weights())\n"
            "c = tf.lite.TFLiteConverter.from_concrete_functions([m.__call__.get_concrete_function()], m)\n"
            "open(sys.argv[2], 'wb').write(c.convert())\n"
            "c.optimizations = [tf.lite.Optimize.DEFAULT]\n"
            "open(sys.argv[3], 'wb').write(c.convert())\n"),
            enc, os.path.join(work, "tfscope_encoder_float.tflite"),
            os.path.join(work, "tfscope_encoder_dynamic.tflite")], check=True)
        for name in ("encoder_float", "encoder_dynamic"):
            p = os.path.join(work, "tfscope_%s.tflite" % name)
            targets.append(("tfscope %s.tflite" % name, "tflite", p, p))
    sm = os.path.join(work, "tf_sm")
    shutil.copytree(tf_sm, sm)
    ours = os.path.join(work, "tfscope_sm")
    if python:
        subprocess.run([python, "-c", (
            "import sys, tfscope as tf\n"
            "class M(tf.Module):\n"
            "    def __init__(self):\n"
            "        self.w = tf.Variable(tf.random.normal([4, 3], seed=1))\n"
            "        self.b = tf.Variable(tf.zeros([3]))\n"
            "    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])\n"
            "    def f(self, x):\n"
            "        return tf.nn.relu(tf.matmul(x, self.w) + self.b)\n"
            "tf.saved_model.save(M(), sys.argv[1])\n"), ours], check=True)
    else:
        tool = os.path.join(os.path.dirname(tfscope), "tests", "savedmodel", "saved_model_tool")
        subprocess.run([tool, "save-mlp", ours], check=True, capture_output=True)
    for label, d in (("TF", sm), ("tfscope", ours)):
        for f in ("saved_model.pb", os.path.join("variables", "variables.index")):
            targets.append(("%s %s" % (label, f), "saved_model", d, os.path.join(d, f)))
    return targets


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tfscope", required=True)
    ap.add_argument("--python", help="a Python with the tfscope package (adds the API runs)")
    ap.add_argument("--flips", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    failures, total = [], 0
    worker = PythonWorker(args.python, args.timeout) if args.python else None
    with tempfile.TemporaryDirectory(prefix="tfscope_flip_") as work:
        for label, kind, model, victim in make_targets(args.tfscope, args.python, work):
            with open(victim, "rb") as f:
                original = f.read()
            counts = {"ok": 0, "error": 0}
            start = time.time()
            for _ in range(args.flips):
                pos = rng.randrange(len(original))
                damaged = bytearray(original)
                damaged[pos] ^= rng.randrange(1, 256)
                with open(victim, "wb") as f:
                    f.write(damaged)
                runs = [["inspect", model], ["inspect", model, "--json"]]
                cli = [cli_run(args.tfscope, r, args.timeout) for r in runs]
                results = [failure for failure, _ in cli]
                if worker:
                    results.append(worker.run(kind, model))
                bad = [r for r in results if r]
                for r in bad:
                    failures.append("%s, byte %d: %s" % (label, pos, r))
                counts["ok" if cli[0][1] == 0 else "error"] += 1
                total += 1
            with open(victim, "wb") as f:
                f.write(original)
            print("%-34s %d flips: %d read, %d refused with one line; %.0f s" % (
                label, args.flips, counts["ok"], counts["error"], time.time() - start), flush=True)
    if worker:
        worker.close()
    print("byte flips: %d damaged files, %d failures (crash, hang, several lines or internal text)"
          % (total, len(failures)))
    for f in failures[:20]:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
