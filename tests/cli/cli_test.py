#!/usr/bin/env python3
"""Checks of the tfscope command: cli_test.py PATH/TO/tfscope CHECK.

Every failure of the command must be one line on stderr, "tfscope: error: [component] ...", with
a non-zero exit status, and nothing it is asked to write may destroy its input.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

TFSCOPE = sys.argv[1]
SOURCE = os.environ.get("TFSCOPE_SOURCE_DIR",
                        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TF_MLP = os.path.join(SOURCE, "tests", "savedmodel", "fixtures", "tf_mlp")  # written by TF 2.21
CHECKS = {}


def check(fn):
    CHECKS[fn.__name__] = fn
    return fn


def run(*args, cwd=None, preexec_fn=None):
    return subprocess.run([TFSCOPE, *args], capture_output=True, text=True, cwd=cwd,
                          preexec_fn=preexec_fn, timeout=120)


def one_error_line(p, prefix):
    """The process failed with exactly one stderr line that starts with `prefix`."""
    assert p.returncode != 0, (p.returncode, p.stdout, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith(prefix), (lines[0], prefix)
    return lines[0]


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def model_copy(tmp):
    sm = os.path.join(tmp, "sm")
    shutil.copytree(TF_MLP, sm)
    return sm


@check
def version():
    p = run("--version")
    assert p.returncode == 0, p
    assert p.stdout.strip() == "tfscope 0.1.0", p.stdout


@check
def unknown_command():
    line = one_error_line(run("frobnicate"), "tfscope: error: [cli] ")
    assert line == ("tfscope: error: [cli] unknown command 'frobnicate'; the commands are demo, "
                    "autograph, inspect, convert, lint, watch"), line


@check
def no_command():
    line = one_error_line(run(), "tfscope: error: [cli] ")
    assert "demo, autograph, inspect, convert, lint" in line, line


@check
def convert_refuses_its_input():
    with tempfile.TemporaryDirectory() as tmp:
        sm = model_copy(tmp)
        before = {f: digest(os.path.join(sm, f)) for f in ("saved_model.pb", "fingerprint.pb")}
        for out in ("saved_model.pb", "fingerprint.pb", "variables/variables.index"):
            target = os.path.join(sm, out)
            line = one_error_line(run("convert", sm, "-o", target), "tfscope: error: [convert] ")
            assert line == ("tfscope: error: [convert] %s: is a file of the input SavedModel %s; "
                            "write the .tflite elsewhere" % (target, sm)), line
        after = {f: digest(os.path.join(sm, f)) for f in before}
        assert before == after
        # A new file beside the model's own is fine.
        p = run("convert", sm, "-o", os.path.join(sm, "model.tflite"))
        assert p.returncode == 0, p.stderr


@check
def convert_refuses_a_directory():
    with tempfile.TemporaryDirectory() as tmp:
        sm = model_copy(tmp)
        out = os.path.join(tmp, "outdir")
        os.mkdir(out)
        line = one_error_line(run("convert", sm, "-o", out), "tfscope: error: [convert] ")
        assert line == ("tfscope: error: [convert] %s: is a directory; -o takes the .tflite file "
                        "to write" % out), line
        assert os.listdir(out) == []


@check
def convert_refuses_an_empty_output():
    with tempfile.TemporaryDirectory() as tmp:
        sm = model_copy(tmp)
        line = one_error_line(run("convert", sm, "-o", ""), "tfscope: error: [convert] ")
        assert line == "tfscope: error: [convert] -o is empty; give the .tflite file to write", line


@check
def convert_says_why_a_write_failed():
    with tempfile.TemporaryDirectory() as tmp:
        sm = model_copy(tmp)
        os.chmod(tmp, 0o755)
        ro = os.path.join(tmp, "ro")
        os.mkdir(ro, 0o555)
        out = os.path.join(ro, "m.tflite")
        # root writes anywhere; run the command as nobody then
        drop = (lambda: os.setuid(65534)) if os.geteuid() == 0 else None
        line = one_error_line(run("convert", sm, "-o", out, preexec_fn=drop),
                              "tfscope: error: [convert] ")
        assert line == ("tfscope: error: [convert] PermissionDeniedError: %s; Permission denied"
                        % out), line
        assert os.listdir(ro) == []  # no temporary left behind
        line = one_error_line(run("convert", sm, "-o", os.path.join(tmp, "no", "m.tflite")),
                              "tfscope: error: [convert] ")
        assert line.endswith("m.tflite; No such file or directory"), line


@check
def errors_are_one_line():
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "bad.tflite")
        with open(bad, "wb") as f:
            f.write(b"\xff\xfe not a model")
        for args, component in ((["inspect", os.path.join(tmp, "missing")], "inspect"),
                                (["inspect", bad], "lite"),
                                (["convert", os.path.join(tmp, "missing"), "-o", "x.tflite"],
                                 "savedmodel"),
                                (["autograph", os.path.join(tmp, "missing.py") + ":f"], "autograph"),
                                (["demo", "--bogus"], "cli")):
            one_error_line(run(*args, cwd=tmp), "tfscope: error: [%s] " % component)


# The program of the demo's training section, run under TF 2.21 (the oracle): what it records.
_TF_TRAINING = r"""
import json, logging, re, sys
import numpy as np
import tensorflow as tf
out, warnings = {}, []

class Sink(logging.Handler):
    def emit(self, r):
        warnings.append(re.sub(r"at 0x[0-9a-f]+>", "at 0x...>", r.getMessage()))

logging.getLogger("tensorflow").addHandler(Sink())
def record(label, value):
    out[label] = value.tolist() if hasattr(value, "tolist") else value
def count(label, fn):
    out[label] = fn.experimental_get_tracing_count()
exec(open(sys.argv[1]).read())
out["warnings"] = [w for w in warnings if "retracing" in w]
print(json.dumps(out))
"""


@check
def demo_training_is_tfs_program():
    """`tfscope demo --only training` gives what TF 2.21 gives running the same loop
    (conformance/cases/ad_training_demo.py) on this machine: the losses bit for bit, the traces
    and TF's two retracing warnings."""
    oracle = subprocess.run([os.path.join(SOURCE, "conformance", "oracle_env.sh")],
                            capture_output=True, text=True, check=True).stdout.strip()
    case = os.path.join(SOURCE, "conformance", "cases", "ad_training_demo.py")
    tf = subprocess.run([oracle, "-c", _TF_TRAINING, case], capture_output=True, text=True,
                        timeout=600, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    assert tf.returncode == 0, tf.stderr
    want = json.loads(tf.stdout.splitlines()[-1])
    p = run("demo", "--json", "--only", "training")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)["training"]
    bug, fix = got["python_int_step"], got["tensor_step"]
    assert bug["losses"] == want["python-int step: losses"], (bug["losses"][:3], want)
    assert fix["losses"] == want["tf.constant step: losses"]
    assert bug["traces"] == want["python-int step: traces"] == 100
    assert fix["traces"] == want["tf.constant step: traces"] == 1
    assert bug["last_step"] == want["python-int step: last_step"]
    assert bug["warnings"] == want["warnings"], (bug["warnings"], want["warnings"])
    assert got["same_losses"] == all(want["same losses"])
    # The ledger names the literal that changed.
    assert bug["reasons"][1] == "step: Literal[0] -> Literal[1]", bug["reasons"][:2]


if __name__ == "__main__":
    CHECKS[sys.argv[2]]()
    print("ok", sys.argv[2])
