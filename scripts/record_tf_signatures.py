#!/usr/bin/env python3
"""Records TF 2.21's signatures of the public callables tfscope exports, for
python/tests/test_signatures.py (which then runs without TF).

    scripts/record_tf_signatures.py [OUT.json]

Step 1 (the project's .venv python, tfscope from python/ or installed): every public name path
tfscope exports (functions, Python classes and their public methods, namespaces below the top
level) with whether it is a function, a class or a namespace. Step 2 (the oracle's python): for
each path that TF 2.21 also has as a function or class, inspect.signature of TF's object. The
JSON maps "math.add" to [[name, kind, default], ...] (default: {"repr": ...} or null for none).
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.environ.get("TFSCOPE_ORACLE_PY", "/root/.cache/tfscope/oracle-venv/bin/python")
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "python/tests/tf_signatures.json")

TFSCOPE_WALK = r'''
import inspect, json, sys, types
import tfscope as tf

paths = {}

def python_defined(obj):
    if inspect.isfunction(obj):
        return True
    return inspect.isclass(obj) and not obj.__module__.startswith("tfscope._core")

def walk(obj, prefix, depth, seen):
    for name in sorted(dir(obj)):
        if name.startswith("_"):
            continue
        try:
            v = getattr(obj, name)
        except Exception:
            continue
        path = prefix + name
        if isinstance(v, types.ModuleType):
            if v.__name__.startswith("tfscope") and id(v) not in seen and depth < 3:
                seen.add(id(v))
                paths[path] = "namespace"
                walk(v, path + ".", depth + 1, seen)
            continue
        if inspect.isclass(v) and python_defined(v):
            paths[path] = "class"
            if depth < 3 and id(v) not in seen:
                seen.add(id(v))
                walk(v, path + ".", depth + 1, seen)
        elif inspect.isfunction(v) or inspect.ismethod(v):
            paths[path] = "function"

walk(tf, "", 0, set())
json.dump(paths, sys.stdout)
'''

TF_RECORD = r'''
import enum, inspect, json, os, sys
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf

paths = json.load(sys.stdin)

def resolve(path):
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj

def default(p):
    if p.default is inspect.Parameter.empty:
        return None
    r = repr(p.default)
    if r.startswith("<object object at"):
        r = "<object>"  # a sentinel: its address changes from run to run
    return {"repr": r}

out = {}
for path, kind in sorted(paths.items()):
    if kind == "namespace":
        continue
    try:
        obj = resolve(path)
    except AttributeError:
        continue
    if inspect.ismodule(obj) or not callable(obj):
        continue
    # A tfscope class used as a namespace (tfscope.math) is a module in TF: its members are
    # recorded, not the namespace itself.
    if inspect.isclass(obj) and issubclass(obj, enum.Enum):
        continue  # an Enum's "signature" is Enum's functional API, not the type's
    try:
        sig = inspect.signature(obj)
        params = list(sig.parameters.values())
        # A class whose metaclass takes (*args, **kwargs) (tf.Variable): its __init__'s.
        if inspect.isclass(obj) and [p.kind.name for p in params] == ["VAR_POSITIONAL", "VAR_KEYWORD"]:
            params = list(inspect.signature(obj.__init__).parameters.values())[1:]
    except (TypeError, ValueError):
        continue
    out[path] = [[p.name, p.kind.name, default(p)] for p in params]
json.dump(out, sys.stdout, indent=0, sort_keys=True)
'''


def main():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    py = os.environ.get("TFSCOPE_PY", os.path.join(ROOT, ".venv/bin/python"))
    names = subprocess.run([py, "-c", TFSCOPE_WALK], check=True, capture_output=True, text=True,
                           env=env).stdout
    # The namespaces TF has as modules (tf.math) are tfscope classes: the walk marks every
    # class, and TF's side skips what is a module there.
    recorded = subprocess.run([ORACLE, "-c", TF_RECORD], input=names, check=True,
                              capture_output=True, text=True).stdout
    data = json.loads(recorded)
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"recorded {len(data)} TF signatures in {OUT}")


if __name__ == "__main__":
    main()
