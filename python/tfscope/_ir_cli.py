"""`python -m tfscope ir FILE.py:FUNC --args SPEC [--stage STAGE] [--normalize]`: the compiler IR
(HLO text) of a function for arguments of the given dtypes and shapes.

SPEC lists the arguments, comma-separated: a tensor as DTYPE[d0,d1,...] (f32, f64, s32/i32,
s64/i64, pred/bool, or numpy's names: float32[2,3], int32[]), a Python int or float as itself.
FUNC may be a plain Python function (traced with jit_compile=True) or a tf.function.
"""
import argparse
import importlib.util
import os
import re
import sys

_DTYPES = {"f32": "float32", "f64": "float64", "s32": "int32", "i32": "int32", "s64": "int64",
           "i64": "int64", "pred": "bool"}
_TENSOR = re.compile(r"^([A-Za-z0-9_]+)\[([0-9,\s]*)\]$")


def _split_top_level(spec):
    parts, depth, cur = [], 0, ""
    for ch in spec:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_args_spec(spec, tf, tag="ir"):
    values = []
    for part in _split_top_level(spec):
        m = _TENSOR.match(part)
        if m:
            dtype = _DTYPES.get(m.group(1), m.group(1))
            if not hasattr(tf, dtype):
                raise ValueError("[%s] unknown dtype %r in %r" % (tag, m.group(1), part))
            dims = [int(d) for d in m.group(2).replace(" ", "").split(",") if d]
            values.append(tf.zeros(dims, getattr(tf, dtype)))
            continue
        try:
            values.append(int(part))
        except ValueError:
            try:
                values.append(float(part))
            except ValueError:
                raise ValueError("[%s] cannot read argument %r: expected DTYPE[dims] or a number"
                                 % (tag, part))
    return values


def load_function(target, tag="ir"):
    path, sep, name = target.rpartition(":")
    if not sep or not path or not name:
        raise ValueError("[%s] expected FILE.py:FUNC, got %r" % (tag, target))
    if not os.path.isfile(path):
        raise ValueError("[%s] no such file: %s" % (tag, path))
    spec = importlib.util.spec_from_file_location("_tfscope_ir_target", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    obj = module
    for attr in name.split("."):
        if not hasattr(obj, attr):
            raise ValueError("[%s] %s has no function %s" % (tag, path, name))
        obj = getattr(obj, attr)
    return obj


def _one_line(message):
    # A trace failure reads "in user code: <frames> <the error>": its last line says what failed.
    lines = [line.strip() for line in message.split("\n") if line.strip()]
    if not lines:
        return ""
    return lines[-1] if lines[0].startswith("in user code:") else lines[0]


def main(argv):
    import tfscope as tf
    from . import _compiler_ir
    from ._function import Function

    ap = argparse.ArgumentParser(prog="python -m tfscope ir", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target", help="FILE.py:FUNC")
    ap.add_argument("--args", default="", help="the arguments, e.g. 'f32[2,3],f32[3,4],2'")
    ap.add_argument("--stage", default="hlo", help="'hlo' (default) or 'hlo_no_metadata'")
    ap.add_argument("--normalize", action="store_true",
                    help="print the form compared with TF's (no source locations, ids renumbered)")
    opts = ap.parse_args(argv)
    try:
        fn = load_function(opts.target)
        if not isinstance(fn, Function):
            fn = tf.function(fn, jit_compile=True)
        text = fn.experimental_get_compiler_ir(*parse_args_spec(opts.args, tf))(stage=opts.stage)
    except Exception as e:  # noqa: BLE001 - every failure is a one-line error with its type
        line = _one_line(str(e))
        if not line.startswith(type(e).__name__ + ": "):
            line = "%s: %s" % (type(e).__name__, line)
        sys.stderr.write("tfscope: error: %s\n" % line)
        return 1
    sys.stdout.write(_compiler_ir.normalize(text) if opts.normalize else text)
    return 0
