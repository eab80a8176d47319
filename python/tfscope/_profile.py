"""tfscope.profile(fn, *args, **kwargs): one call of a tfscope function with the executor's time
per op, beside the call's trace time and run time from the function's ledger.

The result prints as a table of ops by total time (op types, then nodes), in the manner of TF
Profiler's op statistics, and writes Chrome trace events (Perfetto, chrome://tracing) with one
span per executed op, on top of the call's trace and run spans. Only ops that run a kernel are
events, as in TF's profiler (a Const's value is placed without one); a call node's span (a
PartitionedCall, While, If) holds the spans of the ops its function ran, and its self time is
its own time less theirs.
"""
import collections
import json

from . import _core

OpEvent = collections.namedtuple(
    "OpEvent", "node op function depth thread start_us dur_us self_us")


def _self_times(raw):
    """Each event's time less the time of the events one level deeper that ran inside it."""
    out = []
    for node, op, fn, depth, thread, start, dur in raw:
        out.append([node, op, fn, depth, thread, start / 1e3, dur / 1e3, dur / 1e3])
    by_start = sorted(range(len(out)), key=lambda i: (out[i][4], out[i][5], -out[i][6]))
    open_spans = {}  # thread -> stack of indices
    for i in by_start:
        e = out[i]
        stack = open_spans.setdefault(e[4], [])
        while stack and out[stack[-1]][5] + out[stack[-1]][6] < e[5] + e[6]:
            stack.pop()
        while stack and out[stack[-1]][3] >= e[3]:
            stack.pop()
        if stack and out[stack[-1]][3] == e[3] - 1:
            out[stack[-1]][7] -= e[6]
        stack.append(i)
    return [OpEvent(*e[:7], max(0.0, e[7])) for e in out]


class Profile:
    """One profiled call: its result, trace and run time (us) and the executed ops."""

    def __init__(self, name, result, traced, trace_us, run_us, events):
        self.name = name
        self.result = result
        self.traced = traced
        self.trace_us = trace_us
        self.run_us = run_us
        self.events = events

    def op_types(self):
        """[(op type, occurrences, total us, self us)], by total self time, largest first."""
        rows = {}
        for e in self.events:
            r = rows.setdefault(e.op, [e.op, 0, 0.0, 0.0])
            r[1] += 1
            r[2] += e.dur_us
            r[3] += e.self_us
        return sorted((tuple(r) for r in rows.values()), key=lambda r: (-r[3], r[0]))

    def nodes(self):
        """[(function, node, op type, occurrences, total us, self us)], largest self time first."""
        rows = {}
        for e in self.events:
            r = rows.setdefault((e.function, e.node), [e.function, e.node, e.op, 0, 0.0, 0.0])
            r[3] += 1
            r[4] += e.dur_us
            r[5] += e.self_us
        return sorted((tuple(r) for r in rows.values()), key=lambda r: (-r[5], r[0], r[1]))

    def table(self):
        total = sum(e.self_us for e in self.events) or 1.0
        lines = ["profile of %s: %s, trace %.1f us, run %.1f us, %d ops executed" % (
            self.name, "traced" if self.traced else "a cache hit", self.trace_us, self.run_us,
            len(self.events)),
            "", "%-28s %6s %12s %12s %7s" % ("op type", "count", "total us", "self us",
                                              "self %")]
        for op, n, tot, own in self.op_types():
            lines.append("%-28s %6d %12.1f %12.1f %6.1f%%" % (op, n, tot, own, own / total * 100))
        lines += ["", "%-24s %-32s %-20s %6s %12s %12s" % (
            "function", "node", "op type", "count", "total us", "self us")]
        for fn, node, op, n, tot, own in self.nodes():
            lines.append("%-24s %-32s %-20s %6d %12.1f %12.1f" % (fn, node, op, n, tot, own))
        return "\n".join(lines) + "\n"

    __str__ = table

    def chrome_trace(self):
        from ._chrome_trace import Trace
        trace = Trace()
        # the call's own spans first, on the caller's track: its trace (when it traced), its run
        t = 0.0
        if self.traced:
            trace.span("trace %s" % self.name, "trace", 0.0, self.trace_us, "call")
            t = self.trace_us
        trace.span("run %s" % self.name, "call", t, self.run_us, "call")
        for e in self.events:
            trace.span(e.node, "op", e.start_us, e.dur_us, ("op", e.thread),
                       {"op": e.op, "function": e.function, "depth": e.depth,
                        "self_us": e.self_us})
        return trace

    def write_chrome_trace(self, path):
        self.chrome_trace().write(path)

    def to_dict(self):
        return {"function": self.name, "traced": self.traced, "trace_us": self.trace_us,
                "run_us": self.run_us, "events": [e._asdict() for e in self.events],
                "op_types": [dict(zip(("op", "count", "total_us", "self_us"), r))
                             for r in self.op_types()]}


def _ledger_totals(fn):
    data = json.loads(fn._core.ledger_json())
    entries = data.get("entries", [])
    return (data.get("calls", 0), len(entries), sum(e.get("run_us", 0.0) for e in entries),
            entries)


def profile(fn, *args, **kwargs):
    """Calls tfscope function `fn` once with the arguments and returns its Profile: trace time
    and run time from the ledger, the executor's time per op (ops on every thread the call's
    plans ran on)."""
    core = getattr(fn, "_core", None)
    if core is None or not hasattr(core, "ledger_json"):
        raise TypeError("tfscope.profile: expected a tfscope.function, got %s" %
                        type(fn).__name__)
    calls0, n0, run0, _ = _ledger_totals(fn)
    prof = _core.OpProfile()
    prof.start()
    try:
        result = fn(*args, **kwargs)
    finally:
        prof.stop()
    calls1, n1, run1, entries = _ledger_totals(fn)
    new = entries[n0:] if n1 > n0 else []
    traced = any(e.get("traced") for e in new)
    trace_us = sum(e.get("trace_us", 0.0) for e in new)
    name = getattr(fn, "__name__", None) or getattr(fn, "_name", "function")
    return Profile(name, result, traced, trace_us, max(0.0, run1 - run0),
                   _self_times(prof.events()))
