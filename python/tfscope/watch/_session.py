"""What watch records: each real tf.function (a Function object), its calls and its traces.

Functions are grouped by their Python function's code object, the key TF's own retracing warning
counts by (Function._key_for_call_stats): a tf.function made again in a loop, a method's Function
per instance and Keras's step function per model are one entry with several Function objects.
"""
import json
import os
import sys
import threading
import time
import weakref

from tfscope import _core

from . import _explain
from . import _graph

TIMELINE_CAP = 100000  # calls kept per function for the report's timeline; counts stay exact

_STDLIB = os.path.dirname(os.__file__)
_HERE = os.path.dirname(os.path.abspath(__file__))
_LIBRARY_PARTS = (os.sep + "tensorflow" + os.sep, os.sep + "keras" + os.sep,
                  os.sep + "tf_keras" + os.sep, os.sep + "absl" + os.sep,
                  os.sep + "_pytest" + os.sep, os.sep + "pluggy" + os.sep)


class RetraceError(RuntimeError):
    """A tf.function traced past the budget watch was given (TFSCOPE_MAX_TRACES, --max-traces,
    --fail-on-retrace, the pytest plugin)."""


RetraceError.__module__ = "tfscope.watch"


_library_cache = {}


def _is_library(filename):
    r = _library_cache.get(filename)
    if r is None:
        r = (filename.startswith("<") or filename.startswith(_HERE) or
             filename.startswith(_STDLIB) and "site-packages" not in filename or
             "__autograph_generated_file" in filename or
             any(p in filename for p in _LIBRARY_PARTS))
        _library_cache[filename] = r
    return r


_site_cache = {}
site_files = {}  # "file:line" as reported -> (the file's full path, line), for the lint join


def _make_site(filename, line):
    """The "file:line" text of a user frame, kept for the next call from it."""
    key = (filename, line)
    site = _site_cache[key] = "%s:%d" % (_short(filename), line)
    site_files[site] = key
    return site


def setup_fast_site():
    """Hands watch's caches to the C++ helpers of the hot path (_core._watch_*)."""
    from tfscope import _core
    eager = keyed = None
    if "tensorflow" in sys.modules:
        try:
            from tensorflow.python.data.ops import iterator_ops
            from tensorflow.python.framework import ops
            eager = ops.EagerTensor
            # the self-check maps an iterator by its element spec alone (IteratorSpec)
            keyed = {iterator_ops.OwnedIterator: "element_spec"}
        except ImportError:
            pass
    _core._watch_setup(eager, _library_cache, _is_library, _site_cache, _make_site, keyed)


def user_site(depth=1):
    """file:line of the innermost frame outside TF, Keras, the standard library and watch."""
    from tfscope import _core
    return _core._watch_user_site(depth + 1)


_short_cache = {}  # (path, working directory) -> _short's text


def _short(path):
    """`path` relative to the working directory, unless that climbs two levels or more. Kept per
    path and directory: relpath makes two absolute paths (each a getcwd) and a common prefix, and
    a site or "defined at" text is made for every new Function object (tf.data makes one per
    transformation)."""
    try:
        key = (path, os.getcwd())
    except OSError:
        key = None
    short = _short_cache.get(key) if key is not None else None
    if short is None:
        try:
            rel = os.path.relpath(path)
        except ValueError:
            rel = None
        short = path if rel is None or rel.startswith(".." + os.sep + "..") else rel
        if key is not None and len(_short_cache) < 4096:
            _short_cache[key] = short
    return short


_statm = {}  # "fd": /proc/self/statm kept open (a trace reads it twice); dropped in a fork's child
os.register_at_fork(after_in_child=_statm.clear)


def _rss():
    """The process's resident set in bytes (0 where /proc is not there): one pread of
    /proc/self/statm, which the kernel fills again on each read from offset 0."""
    try:
        fd = _statm.get("fd")
        if fd is None:
            fd = _statm["fd"] = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
            _statm["page"] = os.sysconf("SC_PAGE_SIZE")
        return int(os.pread(fd, 128, 0).split()[1]) * _statm["page"]
    except (OSError, ValueError, IndexError):
        return 0


class TraceRecord:
    """One trace: TF's key for it, why it happened and what it cost."""

    def __init__(self, index, record, obj_index, lookup_type, context, scope, name, site, call):
        self.index = index          # 1-based among the traces of its function entry
        self.record = record
        self.obj_index = obj_index  # which Function object of the entry (1-based)
        self.lookup_type = lookup_type
        self.context = context
        self.scope = scope
        self.name = name
        self.site = site
        self.call = call            # 1-based call number of the entry, 0 outside a call
        self.seconds = 0.0
        self.rss_delta = 0
        self._graph_ops = None
        self.reason = []
        self.diff_kinds = []
        self.hint = []
        self.generalized = None     # the TraceType TF traced when reduce_retracing generalized
        self.frame = None           # the call in flight that made it (its `frame` list)
        self.start = 0.0            # seconds since the watch started, and the thread
        self.tid = 0
        self.lint = []              # tfscope lint findings that explain it (see _lint_join)
        # the graph's facts, read from _graph.GraphSource when first asked (graph_ops, graph,
        # graph_report, graph_report_error)
        self._graph_source = None
        self._graph = None          # [(name, op type, [input op names])] for the HTML report
        self._graph_report = None   # the GraphReport (dict) tfscope's GraphDef reader gave
        self._graph_report_error = None

    def keep_graph(self, source):
        """The trace's graph facts, read when first asked (or when the bytes kept grow past
        PENDING_BYTES_KEPT, the oldest first)."""
        self._graph_source = source
        _pending[id(self)] = self
        _pending_size[0] += source.size
        if _pending_size[0] > PENDING_BYTES_KEPT:  # recounted: records dropped since are gone
            live = list(_pending.values())
            _pending_size[0] = sum(t._graph_source.size for t in live)
            for t in live:
                if _pending_size[0] <= PENDING_BYTES_KEPT:
                    break
                t._read_graph()

    def _read_graph(self):
        src = self._graph_source
        if src is None:
            return
        self._graph_source = None
        if _pending.pop(id(self), None) is not None:
            _pending_size[0] -= src.size
        try:
            self._graph_ops, self._graph, self._graph_report = src.resolve(GRAPH_NODES_KEPT)
        except Exception as e:  # noqa: BLE001  (the report says why, the program goes on)
            self._graph_report_error = "%s: %s" % (type(e).__name__, e)

    def _graph_fact(name):  # noqa: N805  (a property maker, used in the class body only)
        def get(self):
            if self._graph_source is not None:
                self._read_graph()
            return getattr(self, name)

        def set_(self, value):
            setattr(self, name, value)
        return property(get, set_)

    graph_ops = _graph_fact("_graph_ops")
    graph = _graph_fact("_graph")
    graph_report = _graph_fact("_graph_report")
    graph_report_error = _graph_fact("_graph_report_error")
    del _graph_fact

    def signature(self):
        return ", ".join("%s: %s" % (n, _explain.type_text(p.type_constraint))
                         for n, p in self.lookup_type.parameters.items())

    def to_json(self):
        return {"index": self.index, "function_object": self.obj_index, "call": self.call,
                "site": self.site, "name": self.name, "scope": getattr(self.scope, "name", None),
                "signature": self.signature(), "reason": self.reason,
                "kinds": self.diff_kinds, "hint": self.hint, "seconds": self.seconds,
                "rss_delta_bytes": self.rss_delta, "graph_ops": self.graph_ops,
                "generalized": self.generalized, "lint": self.lint,
                "graph_report": self.graph_report,
                **({"graph_report_error": self.graph_report_error}
                   if self.graph_report_error else {})}


class FunctionRecord:
    """One Python function's tf.function objects (usually one) and what they did."""

    def __init__(self, key, name, defined_at, kind):
        self.key = key
        self.kind = kind
        self.is_method = False
        self.name = name
        self.defined_at = defined_at
        self.objects = []          # creation site of each Function object, in order
        # the counters every call updates, in C++ fields the call path writes directly
        self.hot = _core._WatchHot()
        self.traced_calls = 0
        self.failed_calls = 0      # calls that raised without a trace (bad input, a budget)
        self.traces = []
        # obj_index -> its traces (those adopted from before the watch first), for the reasons:
        # the next trace of a function made again every epoch looks at its own object's only
        self.by_object = {}
        self.trace_seconds = 0.0   # traces inside calls and outside (get_concrete_function)
        self.call_trace_seconds = 0.0
        self.timeline = []         # (start s, duration s, traces made, site, thread, raised)
        self.tf_counts = {}        # Function object index -> TF's experimental_get_tracing_count
        self.prewatch = []         # traces TF had made before the watch saw the Function
        self.failed = []           # (TraceRecord, error line) of traces that raised
        self.refused = []          # (TraceRecord, message) of traces the budget refused
        self.fn_refs = []          # weak references to the Function objects, by index - 1
        self.selfcheck = None      # _selfcheck.Ledger: tfscope's predictions against TF's count

    @property
    def calls(self):
        return self.hot.calls

    @property
    def call_seconds(self):
        return self.hot.seconds

    @call_seconds.setter
    def call_seconds(self, seconds):
        self.hot.seconds = seconds

    @property
    def run_seconds(self):
        return max(0.0, self.call_seconds - self.call_trace_seconds)

    def tf_tracing_count(self):
        """TF's own count: the sum of each Function object's trace cache size (its last one when
        the object is gone)."""
        for i, ref in enumerate(self.fn_refs, 1):
            fn = ref() if ref is not None else None
            if fn is not None:
                self.tf_counts[i] = len(fn._function_cache)
        return sum(self.tf_counts.values())

    def kept(self):
        """Concrete functions TF still keeps: the trace caches of the live Function objects."""
        live = (ref() for ref in self.fn_refs if ref is not None)
        return sum(len(fn._function_cache) for fn in live if fn is not None)

    def to_json(self):
        return {"name": self.name, "kind": self.kind, "defined_at": self.defined_at,
                "function_objects": self.objects, "calls": self.calls,
                "hits": self.calls - self.traced_calls - self.failed_calls,
                "traced_calls": self.traced_calls, "failed_calls": self.failed_calls,
                "traces": len(self.traces), "tf_tracing_count": self.tf_tracing_count(),
                "kept_concrete_functions": self.kept(),
                "trace_seconds": self.trace_seconds, "run_seconds": self.run_seconds,
                "trace_list": [t.to_json() for t in self.traces],
                "self_check": None if self.selfcheck is None else self.selfcheck.to_json(),
                "refused": [dict(t.to_json(), error=msg) for t, msg in self.refused],
                "failed": [dict(t.to_json(), error=msg) for t, msg in self.failed],
                "timeline": [dict({"t": e[0], "seconds": e[1], "traces": e[2], "site": e[3]},
                                  **({"raised": True} if e[5] else {}))
                             for e in self.timeline]}


def _code_of(python_function):
    f = python_function
    while hasattr(f, "__wrapped__"):
        f = f.__wrapped__
    f = getattr(f, "__func__", f)
    return getattr(f, "__code__", None)


def _defined_at(code):
    if code is None:
        return "<unknown>"
    return "%s:%d" % (_short(code.co_filename), code.co_firstlineno)


def _qualname(code):
    return getattr(code, "co_qualname", None) or code.co_name


def _tf_data_user_function(python_function):
    """The user's function a tf.data wrapper Function traces, or None."""
    for cell in getattr(python_function, "__closure__", None) or ():
        try:
            obj = cell.cell_contents
        except ValueError:
            continue
        if hasattr(obj, "_func") and hasattr(obj, "_input_structure"):
            return obj._func
    return None


def identify(fn):
    """(key, display name, defined at, kind) of a tf.function object.

    kind: "user" (the program's own), "tf.data" (a dataset transformation's function, named by the
    user's function it wraps), "keras" (Keras's step functions), "savedmodel" (a restored
    function), "library" (TF's own internal functions)."""
    pyf = getattr(fn, "_python_function", None)
    code = _code_of(pyf)
    name = getattr(fn, "_name", None) or "tf.function"
    if code is None:
        return id(fn), name, "<unknown>", "library"
    path = code.co_filename
    if not _is_library(path):
        return code, _qualname(code), _defined_at(code), "user"
    if path.endswith("structured_function.py"):
        user_code = _code_of(_tf_data_user_function(pyf))
        if user_code is not None and not _is_library(user_code.co_filename):
            return (user_code, name), "%s (tf.data %s)" % (_qualname(user_code), name), \
                _defined_at(user_code), "tf.data"
    if "restored_function_body" in code.co_name:
        return ("restored", id(fn)), "restored function", "a SavedModel", "savedmodel"
    if os.sep + "keras" + os.sep in path:
        return code, "Keras %s" % code.co_name, _defined_at(code), "keras"
    return code, _qualname(code), _defined_at(code), "library"


class Session:
    """The state of one watch: records, budget, and the per-thread stack of calls in flight."""

    def __init__(self, max_traces=None, fail_on_retrace=False, budget_source=None,
                 self_check=True):
        self.self_check = self_check
        self.max_traces = max_traces
        self.fail_on_retrace = fail_on_retrace
        self.budget_source = budget_source
        self.records = {}          # key -> FunctionRecord
        self.order = []
        self.t0 = time.perf_counter()
        self.local = threading.local()
        self.lock = threading.Lock()
        self._active = True

    @property
    def active(self):
        return self._active

    @active.setter
    def active(self, active):
        """Also the C++ call path's copy, when this is the session in effect."""
        self._active = bool(active)
        _core._watch_session_active(self, self._active)

    # Function objects -------------------------------------------------------------------------
    def record_of(self, fn, site=None):
        """(FunctionRecord, object index) of a tf.function object, registering it on first sight."""
        info = fn.__dict__.get("_tfscope_watch")
        if info is not None and info[0] is self:
            return info[1], info[2]
        key, name, defined_at, kind = identify(fn)
        with self.lock:
            rec = self.records.get(key)
            if rec is None:
                rec = FunctionRecord(key, name, defined_at, kind)
                code = _code_of(getattr(fn, "_python_function", None))
                rec.is_method = bool(code is not None and code.co_argcount and
                                     code.co_varnames[0] == "self")
                self.records[key] = rec
                self.order.append(rec)
            rec.objects.append(site or "<before watch started>")
            try:
                rec.fn_refs.append(weakref.ref(fn))
            except TypeError:
                rec.fn_refs.append(None)
            idx = len(rec.objects)
        fn.__dict__["_tfscope_watch"] = (self, rec, idx, rec.hot)  # the call path reads rec.hot
        self._adopt_earlier_traces(fn, rec, idx)
        return rec, idx

    def _adopt_earlier_traces(self, fn, rec, idx):
        """Traces TF made before the watch saw this Function: kept (not counted) so the next
        trace's reason is still a difference from them."""
        cache = getattr(fn, "_function_cache", None)
        primary = getattr(cache, "_primary", None)
        if not primary:
            return
        for context, ftype in list(primary.keys()):
            t = TraceRecord(0, rec, idx, ftype, context, getattr(context, "scope_type", None),
                            rec.name, "<before the watch>", 0)
            t.reason = ["traced before the watch started"]
            rec.prewatch.append(t)
            rec.by_object.setdefault(idx, []).append(t)

    # Calls -------------------------------------------------------------------------------------
    @staticmethod
    def call_in_flight():
        """The innermost watched call in flight on this thread (its `frame` list, see
        python/src/watch_bindings.cc), or None."""
        from tfscope import _core
        return _core._watch_call_in_flight()

    # Traces ------------------------------------------------------------------------------------
    def begin_trace(self, fn, lookup_type, context, scope, name):
        """Registers a trace TF is about to make; raises RetraceError past the budget."""
        rec, idx = self.record_of(fn)
        if rec.kind == "savedmodel" and rec.name == "restored function":
            rec.name = _restored_name(fn)
        call = self.call_in_flight()
        if call is not None and call[0] is not rec:
            call = None
        site = call[2] if call else user_site(2)
        t = TraceRecord(len(rec.traces) + 1, rec, idx, lookup_type, context, scope, name, site,
                        call[1] if call else 0)
        t.frame = call
        self._explain(rec, t)
        over = self._over_budget(rec, t)
        if over:
            rec.refused.append((t, over))
            if call is not None:
                call[5] += 1
            raise RetraceError(over)
        rec.traces.append(t)
        rec.by_object.setdefault(idx, []).append(t)
        if call is not None:
            call[3] += 1
        return t

    def _explain(self, rec, t):
        same_obj = rec.by_object.get(t.obj_index)
        if same_obj:
            self._explain_retrace(rec, t, list(same_obj))
            return
        if not rec.by_object:
            t.reason = ["first call" if t.call else "first trace (get_concrete_function)"]
            t.diff_kinds = ["first"]
            return
        made = rec.objects[t.obj_index - 1]
        first = rec.objects[min(rec.by_object) - 1]
        n = len(rec.by_object)
        if rec.kind == "tf.data":
            t.reason = ["a new tf.data transformation of the same function (made at %s; %d "
                        "traced before it, the first made at %s): tf.data traces the function "
                        "once per transformation" % (made, n, first)]
            t.hint = ["build the dataset once and iterate it again, instead of remaking it"]
        elif rec.kind == "keras":
            t.reason = ["a new Keras %s (made at %s; %d traced before it): Keras makes one per "
                        "model (and again after compile()), each with an empty trace cache" % (
                            rec.name.split(" ", 1)[-1], made, n)]
            t.hint = ["build and compile the model once, outside the loop, and reuse it (or "
                      "call the model directly: model(x) instead of model.predict(x) for small "
                      "batches)"]
        elif rec.kind == "user" and rec.is_method:
            t.reason = ["a new object identity: %s is a method and each instance gets its own "
                        "tf.function (this one made at %s; %d traced before it)" % (
                            rec.name, made, n)]
            t.hint = ["reuse one instance, or make the tf.function once outside the class and "
                      "pass the instance's tensors to it"]
        else:
            t.reason = ["a new Function object for %s (created at %s; %d traced before it, the "
                        "first created at %s): each tf.function object starts with an empty "
                        "trace cache" % (rec.name, made, n, first)]
            t.hint = ["create the tf.function once, outside the loop or function that makes "
                      "it (%s), and reuse it" % made]
        t.diff_kinds = ["new-function"]

    def _explain_retrace(self, rec, t, same_obj):
        _, diffs = _explain.closest(same_obj, t)
        if not diffs:
            diffs = [("", "same-key", "the same trace key as an earlier trace (TF's cache missed "
                      "it: the earlier trace was dropped or made under another lock)")]
        t.reason = [text for _, _, text in diffs]
        t.diff_kinds = sorted({k for _, k, _ in diffs})
        t.hint = _explain.hints(diffs, t, same_obj)

    def _budget_count(self, rec, t):
        """Traces counted against the budget: a first call's variable-creation pair counts once."""
        n = 0
        for e in rec.traces + [t]:
            if "scope" in e.diff_kinds and len(e.diff_kinds) == 1 and e.call == 1:
                continue
            n += 1
        return n

    def _over_budget(self, rec, t):
        limit = self.max_traces
        if self.fail_on_retrace:
            limit = 1 if limit is None else min(limit, 1)
        if limit is None:
            return None
        n = self._budget_count(rec, t)
        if n <= limit:
            return None
        why = "; ".join(t.reason)
        hint = ("; hint: " + "; ".join(t.hint)) if t.hint else ""
        if self.fail_on_retrace and limit == 1:
            budget = "fail on retrace"
        else:
            budget = self.budget_source or "max_traces=%d" % limit
        return ("tfscope watch: %s would trace a %s time at %s, over the budget of %d (%s): %s%s"
                % (rec.name, _ordinal(n), t.site, limit, budget, why, hint))

    def fail_trace(self, t, seconds, error):
        """A trace that raised: TF keeps no concrete function, so it is no trace of TF's count."""
        t.seconds = seconds
        t.record.trace_seconds += seconds
        if t in t.record.traces:
            t.record.traces.remove(t)
            same_obj = t.record.by_object[t.obj_index]
            same_obj.remove(t)
            if not same_obj:
                del t.record.by_object[t.obj_index]
            if t.frame is not None:
                t.frame[3] -= 1
        if t.frame is not None:
            t.frame[5] += 1
        t.record.failed.append((t, "%s: %s" % (type(error).__name__,
                                               str(error).strip().splitlines()[-1:][0]
                                               if str(error).strip() else "")))

    def end_trace(self, t, seconds, rss_delta, concrete):
        if t.frame is not None:
            t.frame[4] += seconds
        t.seconds = seconds
        t.rss_delta = rss_delta
        t.record.trace_seconds += seconds
        try:
            t.keep_graph(_graph.GraphSource(concrete))
        except Exception:  # noqa: BLE001  (TF's internals moved: its graph read at once)
            self._read_graph_now(t, concrete)
        try:
            ft = concrete.function_type
            if ft.parameters != t.lookup_type.parameters:
                t.generalized = ", ".join(
                    "%s: %s" % (n, _explain.type_text(p.type_constraint))
                    for n, p in ft.parameters.items())
                t.reason = t.reason + ["reduce_retracing traced the generalized (%s)" %
                                       t.generalized]
                t.hint = [h for h in t.hint if "reduce_retracing" not in h] + [
                    "none needed for later calls of this kind: reduce_retracing generalized "
                    "this trace, so they reuse it"]
        except Exception:
            pass

    @staticmethod
    def _read_graph_now(t, concrete):
        try:
            ops = concrete.graph.get_operations()
            t.graph_ops = len(ops)
            t.graph = _graph_nodes(ops)
        except Exception:  # a ConcreteFunction whose graph was released
            t.graph_ops = None
        try:
            t.graph_report = json.loads(_graph.graph_report(concrete).json())
        except Exception as e:  # noqa: BLE001  (the report says why, the program goes on)
            t.graph_report_error = "%s: %s" % (type(e).__name__, e)

    # Reports ------------------------------------------------------------------------------------
    def functions(self):
        return list(self.order)


GRAPH_NODES_KEPT = 400  # ops kept per concrete function for the HTML report's drawing
PENDING_BYTES_KEPT = 32 << 20  # serialized graphs kept unread, at most (TraceRecord.keep_graph)
_pending = weakref.WeakValueDictionary()  # id -> a TraceRecord whose graph is unread, oldest first
_pending_size = [0]


def _graph_nodes(ops):
    """The graph's ops as (name, type, inputs by op name, control inputs), the first ones only."""
    out = []
    for op in ops[:GRAPH_NODES_KEPT]:
        out.append((op.name, op.type, [t.op.name for t in op.inputs],
                    [c.name for c in op.control_inputs]))
    return out


def _ordinal(n):
    return "%d%s" % (n, "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(
        n % 10, "th"))




def _restored_name(fn):
    """A restored function's name, from its saved concrete functions (__inference_NAME_123)."""
    for cf in getattr(fn, "concrete_functions", None) or ():
        n = getattr(cf, "name", b"")
        n = n.decode() if isinstance(n, bytes) else str(n)
        if n.startswith("__inference_"):
            n = n[len("__inference_"):]
        head, _, tail = n.rpartition("_")
        return "restored %s" % (head if tail.isdigit() and head else n)
    return "restored function"
