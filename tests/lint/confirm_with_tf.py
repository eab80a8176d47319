"""Runs every corpus snippet under real TensorFlow (the oracle) and records what TF did, so the
corpus labels are TF's truth: how often each function traced, the exception a snippet raised,
whether AutoGraph gave up on a function, and the largest traced graph.

    /root/.cache/tfscope/oracle-venv/bin/python tests/lint/confirm_with_tf.py [--write] [NAME...]

Prints one line per snippet and exits 1 when a snippet's `# tf:` label disagrees with what TF
did. --write stores the outcomes in tests/lint/corpus/tf_outcomes.json (the committed record the
C++ corpus test checks the labels against).
"""
import collections
import contextlib
import io
import json
import logging
import os
import runpy
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")

import tensorflow as tf  # noqa: E402
from tensorflow.python.eager.polymorphic_function import tracing_compilation  # noqa: E402

_traces = collections.Counter()
_max_ops = [0]
_current = [None]


def _innermost(fn):
    while True:
        if hasattr(fn, "__wrapped__"):
            fn = fn.__wrapped__
        elif hasattr(fn, "__func__"):
            fn = fn.__func__
        else:
            return fn


_original = tracing_compilation._create_concrete_function


def _counting(function_type, type_context, func_graph, tracing_options):
    code = getattr(_innermost(tracing_options.python_function), "__code__", None)
    if code is not None:
        mine = code.co_filename == _current[0]
        keras_step = "/keras/src/" in code.co_filename and "trainer" in code.co_filename
        if mine or keras_step:
            _traces[(code.co_filename, code.co_firstlineno, code.co_name)] += 1
    cf = _original(function_type, type_context, func_graph, tracing_options)
    if code is not None and code.co_filename == _current[0]:
        _max_ops[0] = max(_max_ops[0], len(cf.graph.get_operations()))
    return cf


tracing_compilation._create_concrete_function = _counting


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def run(path):
    _traces.clear()
    _max_ops[0] = 0
    _current[0] = path
    handler = _Collect()
    tf.get_logger().addHandler(handler)
    error = None
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            runpy.run_path(path, run_name="__main__")
    except Exception as e:  # the snippet's own failure is the outcome
        error = type(e).__name__
    finally:
        tf.get_logger().removeHandler(handler)
    return {
        "max_traces": max(_traces.values()) if _traces else 0,
        "error": error,
        "autograph_warning": any("AutoGraph could not transform" in m for m in handler.messages),
        "max_graph_ops": _max_ops[0],
    }


def label_holds(label, o):
    if label == "retrace":
        return o["max_traces"] >= 2
    if label == "no-retrace":
        return o["max_traces"] <= 1 and o["error"] is None
    if label == "ok":
        return o["error"] is None and not o["autograph_warning"]
    if label == "autograph-warning":
        return o["autograph_warning"]
    if label.startswith("error:"):
        return o["error"] == label[len("error:"):]
    if label.startswith("graph-ops>="):
        return o["max_graph_ops"] >= int(label[len("graph-ops>="):])
    if label.startswith("graph-ops<"):
        return o["max_graph_ops"] < int(label[len("graph-ops<"):])
    raise ValueError("unknown label " + label)


def label_of(path):
    with open(path) as f:
        for line in f:
            if line.startswith("# tf: "):
                return line[len("# tf: "):].strip()
    raise ValueError(path + ": no '# tf:' label")


def main(argv):
    write = "--write" in argv
    names = [a for a in argv if not a.startswith("--")]
    files = sorted(f for f in os.listdir(CORPUS) if f.endswith(".py"))
    if names:
        files = [f for f in files if any(f.startswith(n) for n in names)]
    outcomes, bad = {}, 0
    for f in files:
        path = os.path.join(CORPUS, f)
        o = run(path)
        label = label_of(path)
        ok = label_holds(label, o)
        bad += not ok
        outcomes[f[:-3]] = o
        print("%-4s %-45s %-28s %s" % ("ok" if ok else "FAIL", f[:-3], label, json.dumps(o)))
    print("%d snippets, %d disagree with their TF label" % (len(files), bad))
    if write:
        record = {"tensorflow": tf.__version__, "outcomes": outcomes}
        with open(os.path.join(CORPUS, "tf_outcomes.json"), "w") as out:
            json.dump(record, out, indent=1, sort_keys=True)
            out.write("\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
