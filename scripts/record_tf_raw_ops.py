#!/usr/bin/env python3
"""Records TF 2.21's tf.raw_ops signatures of the ops in tfscope's op registry, for
python/tests/test_op_registry.py (which then runs without TF).

    scripts/record_tf_raw_ops.py [OUT.json]

Step 1 (the project's .venv python, tfscope from python/ or installed): the registry's op names
with their OpDef input names. Step 2 (the oracle's python): for each op TF 2.21 also has,
the parameter names of tf.raw_ops.<Op> (its inputs under TF's Python names, then the attrs it
does not infer, then `name`). The JSON maps "Split" to {"params": [...], "inputs": N, "function": "split"}, N the
number of TF's OpDef inputs (the first N params are inputs), and the wrapper's function name.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.environ.get("TFSCOPE_ORACLE_PY", "/root/.cache/tfscope/oracle-venv/bin/python")
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "python/tests/tf_raw_ops.json")

TFSCOPE_OPS = r'''
import json, sys
from tfscope import _core
json.dump(sorted(_core.registered_ops()), sys.stdout)
'''

TF_RECORD = r'''
import inspect, json, os, sys
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf
from tensorflow.python.framework import op_def_registry

out = {}
for op in json.load(sys.stdin):
    fn = getattr(tf.raw_ops, op, None)
    op_def = op_def_registry.get(op)
    if fn is None or op_def is None:
        continue
    out[op] = {"params": list(inspect.signature(fn).parameters),
               "inputs": len(op_def.input_arg), "function": fn.__name__}
json.dump(out, sys.stdout, indent=0, sort_keys=True)
'''


def main():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    py = os.environ.get("TFSCOPE_PY", os.path.join(ROOT, ".venv/bin/python"))
    ops = subprocess.run([py, "-c", TFSCOPE_OPS], check=True, capture_output=True, text=True,
                         env=env).stdout
    recorded = subprocess.run([ORACLE, "-c", TF_RECORD], input=ops, check=True,
                              capture_output=True, text=True).stdout
    data = json.loads(recorded)
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"recorded {len(data)} TF raw op signatures in {OUT}")


if __name__ == "__main__":
    main()
