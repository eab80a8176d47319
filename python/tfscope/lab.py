"""tfscope.lab: the tf.function lab's six tools, by the lab's names, for a tfscope function or a
real TensorFlow tf.function alike.

    trace_and_inspect(fn, *inputs)                 -> (ConcreteFunction, GraphReport)
    RetraceProbe(fn)                               calls and traces from now on, and why
    stabilize(fn, input_signature)                 the function with an explicit input_signature
    autograph_diff(fn)                             AutoGraph's converted source and a unified diff
    roundtrip_savedmodel(fn_or_module, probe_inputs, export_dir)
                                                   save, load, rerun: files, signatures, max delta
    convert_tflite_dynamic(fn, probe_inputs)       dynamic-range .tflite, quantized ops, max delta

With a real tf.function, TF traces, saves and converts (TF's own converter, LiteRT runs the
model), and tfscope inspects and explains: RetraceProbe runs the calls under tfscope.watch (each
trace's reason, and tfscope's own prediction of it), autograph_diff shows tfscope's conversion
beside TF's, trace_and_inspect reads TF's GraphDef with tfscope's C++ reader, roundtrip_savedmodel
loads TF's SavedModel with tfscope's C++ reader too (its GraphReport and outputs), and
convert_tflite_dynamic converts TF's SavedModel with tfscope's own converter beside TF's. TensorFlow is imported only for a real TF function.
"""
import difflib
import inspect
import json
import os
import sys
import tempfile

import numpy as np

__all__ = ["GraphReport", "RetraceProbe", "autograph_diff", "convert_tflite_dynamic",
           "roundtrip_savedmodel", "stabilize", "trace_and_inspect"]


def _is_tf(obj):
    """Whether obj is TensorFlow's (a tf.function, a ConcreteFunction, a tf.Module...)."""
    for cls in type(obj).__mro__:
        if (cls.__module__ or "").startswith(("tensorflow.", "keras", "tf_keras")):
            return True
    return False


def _tf():
    import tensorflow
    return tensorflow


def _tfs():
    import tfscope
    return tfscope


class GraphReport:
    """What a traced graph holds: ops by type, captured inputs, the signature."""

    def __init__(self, function, signature, ops_by_type, captures, inputs, outputs, backend):
        self.function = function
        self.signature = signature
        self.ops_by_type = dict(sorted(ops_by_type.items()))
        self.captures = captures      # [(name, dtype, shape)]
        self.inputs = inputs
        self.outputs = outputs
        self.backend = backend

    @property
    def num_nodes(self):
        return sum(self.ops_by_type.values())

    def to_dict(self):
        return {"function": self.function, "signature": self.signature,
                "num_nodes": self.num_nodes, "ops_by_type": self.ops_by_type,
                "captures": self.captures, "inputs": self.inputs, "outputs": self.outputs,
                "backend": self.backend}

    def __str__(self):
        lines = ["GraphReport for %s (%s)" % (self.function, self.backend),
                 "  signature: %s" % self.signature, "  nodes: %d" % self.num_nodes,
                 "  ops by type:"]
        lines += ["    %s: %d" % kv for kv in self.ops_by_type.items()]
        lines.append("  captures:" + ("" if self.captures else " none"))
        lines += ["    %s: %s %s" % c for c in self.captures]
        return "\n".join(lines) + "\n"


def _tf_report(cf):
    """TF's concrete function read by tfscope's C++ GraphDef reader (tfscope.watch's report)."""
    from .watch import _graph
    d = _graph.report_dict(cf)

    def rows(xs):
        return [(x["name"], x["dtype"], x["shape"]) for x in xs]

    return GraphReport(d["function"], d["signature"], d["op_counts"], rows(d["captures"]),
                       rows(d["inputs"]), rows(d["outputs"]), "tensorflow %s" % _tf().__version__)


def _tfs_report(cf):
    d = json.loads(_tfs().report(cf, "json"))

    def rows(xs):
        return [(x["name"], x["dtype"], x["shape"]) for x in xs]

    return GraphReport(d["function"], d["signature"], d["op_counts"], rows(d["captures"]),
                       rows(d["inputs"]), rows(d["outputs"]), "tfscope")


def trace_and_inspect(fn, *inputs):
    """The ConcreteFunction of fn for these inputs (tensors or TensorSpecs) and its GraphReport."""
    cf = fn.get_concrete_function(*inputs)
    return cf, (_tf_report(cf) if _is_tf(fn) else _tfs_report(cf))


class RetraceProbe:
    """Counts the calls made through it and the traces of fn from the moment it is attached, and
    says why each traced: call the probe as the function (probe(x)). For a real tf.function the
    calls run under tfscope.watch, whose self-check also has tfscope's rules predict each one."""

    def __init__(self, fn):
        self.fn = fn
        self.is_tf = _is_tf(fn)
        self.calls = 0
        self._start = fn.experimental_get_tracing_count()
        self._watch = None
        self._log = []  # (call number, traces, reasons)
        if not self.is_tf:
            self._probe = _tfs().RetraceProbe(fn)

    def __call__(self, *args, **kwargs):
        self.calls += 1
        before = self.fn.experimental_get_tracing_count()
        if not self.is_tf:
            result = self.fn(*args, **kwargs)
            self._log.append((self.calls, self.fn.experimental_get_tracing_count() - before, []))
            return result
        from . import watch
        from .watch import _hooks
        if self._watch is None:
            self._watch = watch.Watch()
        if _hooks.current() is not None:
            result = self.fn(*args, **kwargs)  # another watch is on: counts only
            self._log.append((self.calls, self.fn.experimental_get_tracing_count() - before, []))
            return result
        seen = sum(len(r.traces) for r in self._watch.functions)
        self._watch.start()
        try:
            result = self.fn(*args, **kwargs)
        finally:
            self._watch.stop(release=False)
        new = [t for r in self._watch.functions for t in r.traces][seen:]
        self._log.append((self.calls, self.fn.experimental_get_tracing_count() - before,
                          ["; ".join(t.reason) for t in new]))
        return result

    @property
    def traces(self):
        return self.fn.experimental_get_tracing_count() - self._start

    def per_call(self):
        """Traces made by each call through the probe, in order."""
        return [n for _, n, _ in self._log]

    def self_check(self):
        """For a real tf.function: (calls compared, agreed) of tfscope's predictions."""
        if self._watch is None:
            return None
        compared, agreed, _, _ = self._watch.self_check()
        return compared, agreed

    def report(self):
        if not self.is_tf:
            return self._probe.report()
        lines = ["%d calls, %d traces" % (self.calls, self.traces)]
        for call, n, why in self._log:
            lines.append("call %d %s" % (call, "hit" if not n else "traced: " + "; ".join(why)))
        return "\n".join(lines) + "\n"


def stabilize(fn, input_signature):
    """fn's Python function as a new tf.function with this input_signature (one trace for every
    input the signature covers)."""
    if _is_tf(fn):
        return _tf().function(fn.python_function, input_signature=list(input_signature))
    return _tfs().stabilize(fn, input_signature)


def _python_function(fn):
    f = getattr(fn, "python_function", fn)
    while hasattr(f, "__wrapped__"):
        f = f.__wrapped__
    return f


def autograph_diff(fn):
    """{"source", "converted", "diff"} of AutoGraph's conversion of fn's Python function; for a real
    tf.function, TF converts and "tfscope_converted"/"same_as_tfscope" say what tfscope makes."""
    f = _python_function(fn)
    source = inspect.getsource(f)
    tfs_code = _tfs().autograph.to_code(f)
    if _is_tf(fn):
        converted = _tf().autograph.to_code(f)
    else:
        converted = tfs_code
    diff = "".join(difflib.unified_diff(source.splitlines(True), converted.splitlines(True),
                                        "original", "converted"))
    out = {"source": source, "converted": converted, "diff": diff}
    if _is_tf(fn):
        out["tfscope_converted"] = tfs_code
        out["same_as_tfscope"] = tfs_code == converted
    return out


def _files(export_dir):
    out = []
    for root, _, names in os.walk(export_dir):
        for n in names:
            out.append(os.path.relpath(os.path.join(root, n), export_dir))
    return sorted(out)


def _max_delta(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape:
        return float("inf")
    return float(np.max(np.abs(a - b))) if a.size else 0.0


def _flat_outputs(r):
    if isinstance(r, dict):
        return [r[k] for k in sorted(r)]
    if isinstance(r, (list, tuple)):
        return list(r)
    return [r]


def _track_variables(module, cf):
    """A plain tf.function's variables are globals: the saved module must track them."""
    if not module.variables:
        module.captured_variables = list(cf.graph.variables)


def roundtrip_savedmodel(fn_or_module, probe_inputs, export_dir):
    """Saves fn (or a module's __call__), loads it back, runs both on each probe (a list of
    arguments); {"exact", "max_abs_delta", "files", "signatures", "probes", "dir"}. For a real
    tf.function TF saves and loads; tfscope then loads the same SavedModel ("tfscope": its
    GraphReport and its outputs' max delta from TF's)."""
    export_dir = os.fspath(export_dir)
    if not _is_tf(fn_or_module):
        return _tfs().saved_model.roundtrip(fn_or_module, probe_inputs, export_dir)
    tf = _tf()
    fn = fn_or_module
    if isinstance(fn_or_module, tf.Module) and hasattr(fn_or_module, "__call__"):
        fn, module = fn_or_module.__call__, fn_or_module
    else:
        module = tf.Module()
        module.f = fn
    specs = [tf.TensorSpec(np.shape(x), tf.as_dtype(np.asarray(x).dtype)) for x in probe_inputs[0]]
    cf = fn.get_concrete_function(*specs)
    _track_variables(module, cf)
    tf.saved_model.save(module, export_dir, signatures=cf)
    loaded = tf.saved_model.load(export_dir)
    serve = loaded.signatures["serving_default"]
    delta, delta_tfs = 0.0, 0.0
    tfs = _tfs()
    try:
        ours = tfs.saved_model.load(export_dir)
        ours_fn = ours.signatures["serving_default"]
        ours_report = ours_fn.report("json")
    except Exception as e:  # noqa: BLE001  (what tfscope could not read is the report's news)
        ours_fn, ours_report = None, "%s: %s" % (type(e).__name__, e)
    kwnames = list(serve.structured_input_signature[1])
    for probe in probe_inputs:
        want = _flat_outputs(cf(*[tf.constant(x) for x in probe]))
        got = _flat_outputs(serve(**{k: tf.constant(x) for k, x in zip(kwnames, probe)}))
        for w, g in zip(want, got):
            delta = max(delta, _max_delta(w.numpy(), g.numpy()))
        if ours_fn is not None:
            mine = _flat_outputs(ours_fn(**{k: tfs.constant(np.asarray(x))
                                            for k, x in zip(kwnames, probe)}))
            for w, g in zip(want, mine):
                delta_tfs = max(delta_tfs, _max_delta(w.numpy(), g.numpy()))
    return {"exact": delta == 0.0, "max_abs_delta": delta, "files": _files(export_dir),
            "signatures": sorted(loaded.signatures), "probes": len(probe_inputs),
            "dir": export_dir,
            "tfscope": {"report": ours_report, "max_abs_delta_from_tf": delta_tfs
                        if ours_fn is not None else None}}


def _tflite_ops(model_bytes):
    from ai_edge_litert.interpreter import Interpreter
    it = Interpreter(model_content=model_bytes)
    return it, [op["op_name"] for op in it._get_ops_details()]


def _run_litert(it, probe):
    """Runs a LiteRT (or tfscope.lite) Interpreter on one probe; its outputs."""
    it.allocate_tensors()
    for d, x in zip(it.get_input_details(), probe):
        it.set_tensor(d["index"], np.asarray(x, d["dtype"]))
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]


def convert_tflite_dynamic(fn, probe_inputs=16, seed=0):
    """Dynamic-range quantization (int8 weights) and what it changed: {"max_abs_delta", the
    quantized ops, the .tflite bytes, ...}. probe_inputs: a list of argument lists, or a number
    of seeded N(0, 1) probes. For a real tf.function TF's converter converts and LiteRT runs it;
    "tfscope" then holds tfscope's own conversion of TF's SavedModel of fn, run the same way."""
    if not _is_tf(fn):
        tfs = _tfs()
        if isinstance(probe_inputs, int):
            return tfs.lite.convert_tflite_dynamic(fn, probe_inputs, seed)
        out = tfs.lite.convert_tflite_dynamic(fn, len(probe_inputs), seed)
        out["seeded_max_abs_delta"] = out["max_abs_delta"]  # on its own N(0, 1) probes
        it = tfs.lite.Interpreter(model_content=out["int8_model"])
        delta = 0.0
        for probe in probe_inputs:
            want = _flat_outputs(fn(*[tfs.constant(np.asarray(x)) for x in probe]))
            for w, g in zip(want, _run_litert(it, probe)):
                delta = max(delta, _max_delta(w.numpy(), g))
        out["max_abs_delta"] = delta
        out["probes"] = len(probe_inputs)
        return out
    tf = _tf()
    if isinstance(probe_inputs, int):
        cf0 = fn.get_concrete_function() if fn.input_signature else None
        if cf0 is None:
            raise ValueError("convert_tflite_dynamic: give probe inputs, or a function with an "
                             "input_signature")
        rng = np.random.default_rng(seed)
        probe_inputs = [[rng.standard_normal([d or 1 for d in s.shape.as_list()]).astype(
            s.dtype.as_numpy_dtype) for s in fn.input_signature] for _ in range(probe_inputs)]
    specs = [tf.TensorSpec(np.shape(x), tf.as_dtype(np.asarray(x).dtype)) for x in probe_inputs[0]]
    cf = fn.get_concrete_function(*specs)
    conv = tf.lite.TFLiteConverter.from_concrete_functions([cf])
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    model = conv.convert()
    it, ops = _tflite_ops(model)
    delta = 0.0
    wants = []
    for probe in probe_inputs:
        want = [w.numpy() for w in _flat_outputs(cf(*[tf.constant(x) for x in probe]))]
        wants.append(want)
        for w, g in zip(want, _run_litert(it, probe)):
            delta = max(delta, _max_delta(w, g))
    out = {"max_abs_delta": delta, "quantized_ops": ops, "int8_model": model,
           "tflite_bytes": len(model), "probes": len(probe_inputs)}
    # tfscope's own converter on TF's SavedModel of the same function, run by LiteRT too
    with tempfile.TemporaryDirectory() as d:
        module = tf.Module()
        module.f = fn
        _track_variables(module, cf)
        tf.saved_model.save(module, d, signatures=cf)
        tfs = _tfs()
        try:
            c2 = tfs.lite.TFLiteConverter.from_saved_model(d)
            c2.optimizations = [tfs.lite.Optimize.DEFAULT]
            ours = c2.convert()
            it2, ops2 = _tflite_ops(ours)
            d2 = 0.0
            for probe, want in zip(probe_inputs, wants):
                for w, g in zip(want, _run_litert(it2, probe)):
                    d2 = max(d2, _max_delta(w, g))
            out["tfscope"] = {"max_abs_delta": d2, "quantized_ops": ops2,
                              "tflite_bytes": len(ours), "int8_model": ours}
        except Exception as e:  # noqa: BLE001
            out["tfscope"] = {"error": "%s: %s" % (type(e).__name__, e)}
    return out


if __name__ == "__main__":
    sys.exit("tfscope.lab is a library: import it")
