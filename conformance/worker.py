#!/usr/bin/env python3
"""Worker process of the conformance runner: imports ONE backend once and runs cases in it.

Protocol: appends JSON lines to --progress: {"kind":"meta"}, then per case {"kind":"start"} and
{"kind":"result"}; {"kind":"fatal"} when the backend cannot be imported. Its own stdout and stderr
are captured at the file-descriptor level (tf.print writes from C++), so nothing it prints is seen.
"""
import argparse
import collections
import json
import logging
import os
import signal
import sys
import tempfile
import traceback
import types
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import normalize  # noqa: E402

CASES_DIR = normalize.CASES_DIR
LOGGER_NAMES = ("tensorflow", "tfscope")
# glog-style lines written by native code (I1129 18:54:11.1 ... or I0000 00:00:...) and absl's banner
NATIVE_LOG_PREFIXES = ("WARNING: All log messages before absl::InitializeLog()",)


def _is_native_log(line):
    if line.startswith(NATIVE_LOG_PREFIXES):
        return True
    if len(line) > 6 and line[0] in "IWEF" and line[1:5].isdigit() and line[5] == " ":
        return True
    return False


class FdCapture:
    """Redirects fds 1 and 2 to files for the worker's lifetime; take() returns what is new."""

    def __init__(self):
        self.files = {}
        self.offsets = {}
        for fd in (1, 2):
            tmp = tempfile.TemporaryFile(mode="w+b")
            os.dup2(tmp.fileno(), fd)
            self.files[fd] = tmp
            self.offsets[fd] = 0

    def take(self):
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        out = {}
        for fd, f in self.files.items():
            f.seek(self.offsets[fd])
            data = f.read()
            self.offsets[fd] += len(data)
            f.seek(0, os.SEEK_END)
            out[fd] = data.decode("utf-8", "replace")
        return out[1], out[2]


class LogCapture(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.records = []

    def emit(self, record):
        try:
            msg = record.getMessage()
        except Exception as e:  # a broken format string is still a fact worth recording
            msg = f"<unformattable log record: {e}>"
        self.records.append(f"{record.levelname}: {msg}")

    def take(self):
        r, self.records = self.records, []
        return r


class CaseTimeout(BaseException):
    pass


def _lines(text):
    if not text:
        return []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# ----------------------------------------------------------------------------- value encoding

def _plain(x):
    """numpy element -> JSON-able python value (bytes decoded, floats tagged for NaN/inf safety)."""
    import numpy as np
    if isinstance(x, (bytes, np.bytes_)):
        return {"bytes": normalize.text(bytes(x).decode("utf-8", "backslashreplace"))}
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x)
    if isinstance(x, (complex, np.complexfloating)):
        return {"complex": [float(x.real), float(x.imag)]}
    if isinstance(x, str):
        return normalize.text(x)
    return {"repr": normalize.text(repr(x))}


def _array(arr):
    import numpy as np
    arr = np.asarray(arr)
    flat = [_plain(v) for v in arr.reshape(-1).tolist()] if arr.dtype != object else \
        [_plain(v) for v in arr.reshape(-1)]
    return {"array": flat, "dtype": str(arr.dtype), "shape": list(arr.shape)}


def encode(v, depth=0):
    """A backend-independent JSON form of a recorded value."""
    import numpy as np
    if depth > 20:
        return {"repr": "<too deep>"}
    if v is None or isinstance(v, (bool, int)):
        return v
    if isinstance(v, str):
        return normalize.text(v)
    if isinstance(v, float):
        return {"float": v}
    if isinstance(v, (bytes, np.generic)):
        return _plain(v) if not isinstance(v, np.generic) else {"npscalar": _array(v)}
    if isinstance(v, np.ndarray):
        return {"ndarray": _array(v)}
    if isinstance(v, tuple) and hasattr(v, "_fields"):
        return {"namedtuple": type(v).__name__, "fields": {k: encode(getattr(v, k), depth + 1) for k in v._fields}}
    if isinstance(v, list):
        return {"list": [encode(x, depth + 1) for x in v]}
    if isinstance(v, tuple):
        return {"tuple": [encode(x, depth + 1) for x in v]}
    if isinstance(v, dict):
        items = sorted(v.items(), key=lambda kv: repr(kv[0]))
        return {"dict": [[encode(k, depth + 1), encode(x, depth + 1)] for k, x in items]}
    # tensors and variables: anything with a numpy() method
    numpy_fn = getattr(v, "numpy", None)
    if callable(numpy_fn) and not isinstance(v, type):
        try:
            return {"tensor": _array(numpy_fn())}
        except Exception as e:
            return {"tensor_error": _exc(e)}
    return {"repr": normalize.text(repr(v))}


def _exc(e):
    return {"type": type(e).__name__, "message": normalize.text(str(e))}


# ----------------------------------------------------------------------------- hooks

class Recorder:
    def __init__(self, tf, cap, log):
        self.tf = tf
        self.cap = cap
        self.log = log
        self.events = []
        self.pywarn = []

    def _flush_between(self):
        ev = {"kind": "out"}
        if self._attach(ev):
            self.events.append(ev)

    def _attach(self, ev):
        out, err = self.cap.take()
        stdout = _lines(out)
        stderr, native = [], []
        in_native = False
        for line in _lines(err):
            # a native log record may continue on lines that start with a tab
            in_native = _is_native_log(line) or (in_native and line.startswith("\t"))
            (native if in_native else stderr).append(line)
        logs = self.log.take()
        any_ = False
        if stdout:
            ev["stdout"] = [normalize.text(x) for x in stdout]
            any_ = True
        if stderr:
            ev["stderr"] = [normalize.text(x) for x in stderr]
            any_ = True
        if logs:
            ev["warnings"] = [normalize.text(x) for x in logs]
            any_ = True
        if native:
            ev["native_log"] = native  # recorded, never compared
        return any_

    def _event(self, kind, label, body):
        self._flush_between()
        ev = {"kind": kind, "label": label}
        ret = None
        try:
            ret = body(ev)
        except CaseTimeout:
            raise
        except BaseException as e:  # noqa: BLE001 - every exception is a fact to compare
            ev["error"] = _exc(e)
            if isinstance(e, KeyboardInterrupt):
                raise
        self._attach(ev)
        self.events.append(ev)
        return ret

    @staticmethod
    def _count_of(fn):
        get = getattr(fn, "experimental_get_tracing_count", None)
        return get() if callable(get) else None

    # -- public hooks ---------------------------------------------------------------------------
    def call(self, label, fn, *args, **kwargs):
        def body(ev):
            try:
                r = fn(*args, **kwargs)
                ev["result"] = encode(r)
                return r
            finally:
                c = self._count_of(fn)
                if c is not None:
                    ev["count"] = c
        return self._event("call", label, body)

    def concrete(self, label, fn, *args, **kwargs):
        def body(ev):
            try:
                return fn.get_concrete_function(*args, **kwargs)
            finally:
                c = self._count_of(fn)
                if c is not None:
                    ev["count"] = c
        return self._event("concrete", label, body)

    def count(self, label, fn):
        def body(ev):
            ev["count"] = self._count_of(fn)
        return self._event("count", label, body)

    def record(self, label, value):
        def body(ev):
            ev["result"] = encode(value)
        return self._event("record", label, body)

    def attempt(self, label, thunk):
        def body(ev):
            r = thunk()
            ev["ok"] = True
            return r
        return self._event("attempt", label, body)

    @staticmethod
    def _ops(cf):
        gd = cf.graph.as_graph_def()
        c = collections.Counter(n.op for n in gd.node)
        return dict(sorted(c.items()))

    def graph_ops(self, label, cf):
        def body(ev):
            ev["ops"] = self._ops(cf)
        return self._event("graph_ops", label, body)

    def describe(self, label, cf):
        """Records each property separately so that one missing attribute fails only its field."""
        def field(name, thunk):
            try:
                return thunk()
            except Exception as e:  # noqa: BLE001
                return {"error": _exc(e)}

        def body(ev):
            d = {}
            d["ops"] = field("ops", lambda: self._ops(cf))
            d["signature"] = field("signature", lambda: normalize.text(cf.pretty_printed_signature(verbose=False)))
            d["signature_verbose"] = field("signature_verbose",
                                           lambda: normalize.text(cf.pretty_printed_signature()))
            d["structured_input_signature"] = field(
                "structured_input_signature", lambda: normalize.text(repr(cf.structured_input_signature)))
            d["structured_outputs"] = field("structured_outputs",
                                            lambda: normalize.text(repr(cf.structured_outputs)))
            d["inputs"] = field("inputs", lambda: [normalize.text(repr(t)) for t in cf.inputs])
            d["captured_inputs"] = field(
                "captured_inputs",
                lambda: [{"dtype": repr(t.dtype), "shape": repr(t.shape)} for t in cf.captured_inputs])
            ev["describe"] = d
        return self._event("describe", label, body)

    def signatures(self, label, fn):
        def body(ev):
            ev["result"] = {
                "verbose": normalize.text(fn.pretty_printed_concrete_signatures()),
                "short": normalize.text(fn.pretty_printed_concrete_signatures(verbose=False)),
            }
        return self._event("signatures", label, body)

    def hooks(self):
        return {name: getattr(self, name) for name in
                ("call", "concrete", "count", "record", "attempt", "graph_ops", "describe", "signatures")}


# ----------------------------------------------------------------------------- main

def _unique_code(code, tag):
    """Appends an unused constant to every code object of a case.

    Python's code objects compare equal when their bytecode, names and line numbers are equal,
    whatever file they come from, and TF keys its frequent-retracing detector and its AutoGraph
    conversion cache by `fn.__code__`. Two cases with an identical `def` at the same line would
    then share a detector (warnings leaking from case to case) and AutoGraph's cached conversion
    (messages naming the other file). The marker makes each case's code objects distinct without
    changing names, line numbers or behaviour.
    """
    consts = tuple(_unique_code(c, tag) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_consts=consts + (tag,))


def _alarm(signum, frame):
    raise CaseTimeout()


def run_case(tf, np, cap, log, case, timeout):
    path = os.path.join(CASES_DIR, case + ".py")
    with open(path) as f:
        src = f.read()
    rec = Recorder(tf, cap, log)
    g = {"__name__": "case_" + case, "__file__": path, "__builtins__": __builtins__, "tf": tf, "np": np}
    g.update(rec.hooks())
    cap.take()
    log.take()
    result = {}
    old_show = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        rec.pywarn.append(f"{category.__name__}: {message}")
    warnings.showwarning = show
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        code = _unique_code(compile(src, path, "exec"), "conformance case " + case)
        exec(code, g)
    except CaseTimeout:
        result["case_error"] = {"type": "Timeout", "message": f"case ran past {timeout}s"}
    except BaseException as e:  # noqa: BLE001
        result["case_error"] = _exc(e)
        result["case_traceback"] = normalize.text(traceback.format_exc())
    finally:
        signal.alarm(0)
        warnings.showwarning = old_show
    rec._flush_between()
    result["events"] = rec.events
    if rec.pywarn:
        result["python_warnings"] = [normalize.text(w) for w in rec.pywarn]
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", required=True, choices=["tf", "tfscope"])
    ap.add_argument("--progress", required=True)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    prog = open(a.progress, "a", buffering=1)

    def emit(obj):
        prog.write(json.dumps(obj, sort_keys=True) + "\n")
        prog.flush()

    cap = FdCapture()
    try:
        import numpy as np
        if a.backend == "tf":
            import tensorflow as tf
        else:
            import tfscope as tf
    except BaseException as e:  # noqa: BLE001
        emit({"kind": "fatal", "error": _exc(e)})
        return 3
    log = LogCapture()
    get_logger = getattr(tf, "get_logger", None)
    if callable(get_logger):
        try:
            get_logger()  # TF installs its stderr handler lazily here; it is replaced below
        except Exception:
            pass
    for name in LOGGER_NAMES:
        lg = logging.getLogger(name)
        for h in list(lg.handlers):
            lg.removeHandler(h)
        lg.addHandler(log)
        lg.propagate = False
    meta = {"backend": a.backend, "version": getattr(tf, "__version__", None), "numpy": np.__version__,
            "python": sys.version.split()[0]}
    emit({"kind": "meta", "meta": meta})
    cap.take()
    for case in a.cases:
        emit({"kind": "start", "case": case})
        res = run_case(tf, np, cap, log, case, a.timeout)
        emit({"kind": "result", "case": case, "result": res})
    return 0


if __name__ == "__main__":
    sys.exit(main())
