"""The watch report: a text summary (functions by trace time, each retrace with reason and hint)
and the same facts as JSON."""
import json

from . import _graph
from . import _lint_join


def _tf_version():
    import sys
    tf = sys.modules.get("tensorflow")
    return getattr(tf, "__version__", None)


def _ms(s):
    return "%.1f ms" % (s * 1e3)


def _active(session):
    return [r for r in session.functions() if r.calls or r.traces or r.refused or r.failed]


def summary(session):
    """Functions by trace time; TF's internal ones (savers, initializers) on one line each."""
    _lint_join.cite(session)
    recs = sorted(_active(session), key=lambda r: -r.trace_seconds)
    calls = sum(r.calls for r in recs)
    traces = sum(len(r.traces) for r in recs)
    lines = ["tfscope watch: %d tf.function%s, %d call%s, %d trace%s (TensorFlow %s)" % (
        len(recs), "" if len(recs) == 1 else "s", calls, "" if calls == 1 else "s", traces,
        "" if traces == 1 else "s", _tf_version() or "not imported")]
    if session.self_check:
        lines.append(_self_check_line(session))
    library = []
    for r in recs:
        if r.kind == "library":
            library.append(r)
            continue
        objs = "" if len(r.objects) <= 1 else ", %d Function objects" % len(r.objects)
        lines.append("")
        lines.append("%s (defined at %s%s)" % (r.name, r.defined_at, objs))
        failed = (", %d raised" % r.failed_calls) if r.failed_calls else ""
        lines.append("  calls %d (%d hit, %d traced%s), traces %d, trace %s, run %s" % (
            r.calls, r.calls - r.traced_calls - r.failed_calls, r.traced_calls, failed,
            len(r.traces), _ms(r.trace_seconds), _ms(r.run_seconds)))
        rss = sum(t.rss_delta for t in r.traces)
        lines.append("  concrete functions TF keeps: %d; RSS growth across its traces: %.1f MiB" % (
            r.kept(), rss / 2.0**20))
        for t in r.traces:
            where = ("call %d" % t.call) if t.call else "outside a call"
            lines.append("  trace %d (%s at %s, %s, %s ops): %s" % (
                t.index, where, t.site, _ms(t.seconds),
                "?" if t.graph_ops is None else t.graph_ops, "; ".join(t.reason)))
            for h in t.hint:
                lines.append("      hint: " + h)
            g = t.graph_report
            if g is not None:
                caps = ", ".join("%s (%s)" % (c["name"], c["kind"]) for c in g["captures"])
                lines.append("      graph: %s; captures: %s" % (_graph.ops_text(g),
                                                              caps or "none"))
            for f in t.lint:
                lines.append("      lint: %s at %s:%d:%d: %s" % (f["code"], f["path"], f["line"],
                                                             f["col"], f["message"]))
        for t, err in r.failed:
            lines.append("  failed trace (call %d at %s, %s): %s" % (t.call, t.site, _ms(t.seconds),
                                                                 err))
        for t, _ in r.refused:
            lines.append("  refused trace (call %d at %s, over the budget): %s" % (
                t.call, t.site, "; ".join(t.reason)))
        led = r.selfcheck
        if led is not None and (led.disagreements or led.not_modelled or led.twins):
            for d in led.final()[2]:
                lines.append("  self-check DISAGREES: %s%s" % (
                    d.text(), "" if d.case_file is None else " (case: %s)" % d.case_file))
            for why, n in sorted(led.not_modelled.items()):
                lines.append("  self-check: %d call%s not modelled: %s" % (
                    n, "" if n == 1 else "s", why))
    if library:
        lines.append("")
        lines.append("TensorFlow's own: " + ", ".join(
            "%s (%d call%s, %d trace%s)" % (r.name, r.calls, "" if r.calls == 1 else "s",
                                             len(r.traces), "" if len(r.traces) == 1 else "s")
            for r in library))
    return "\n".join(lines) + "\n"


def self_check_totals(session):
    """(calls compared, agreed, not modelled, disagreements) over every function."""
    compared = agreed = not_modelled = 0
    disagreements = []
    for r in session.functions():
        led = r.selfcheck
        if led is None:
            continue
        c, a, dis = led.final()
        compared += c
        agreed += a
        not_modelled += sum(led.not_modelled.values())
        disagreements += [(r, d) for d in dis]
    return compared, agreed, not_modelled, disagreements


def _self_check_line(session):
    compared, agreed, not_modelled, dis = self_check_totals(session)
    nm = (", %d not modelled" % not_modelled) if not_modelled else ""
    if not dis:
        return ("self-check: tfscope's tracing rules agree with TF on all %d calls compared%s" %
                (compared, nm))
    return ("self-check: tfscope's tracing rules DISAGREE with TF on %d of %d calls compared%s" %
            (len(dis), compared, nm))


def to_dict(session):
    _lint_join.cite(session)
    out = {"tool": "tfscope watch", "version": 1, "tensorflow": _tf_version(),
           "functions": [r.to_json() for r in _active(session)]}
    if session.self_check:
        compared, agreed, not_modelled, dis = self_check_totals(session)
        out["self_check"] = {"compared": compared, "agreed": agreed,
                             "not_modelled": not_modelled, "disagreements": len(dis)}
    return out


def write_json(session, path):
    with open(path, "w") as f:
        json.dump(to_dict(session), f, indent=1)
        f.write("\n")


def chrome_trace(session):
    """Trace Event Format (Perfetto, chrome://tracing): a span per call, a span per trace inside
    it, one track per thread; times in microseconds since the watch started."""
    from .._chrome_trace import Trace
    trace = Trace()
    for r in _active(session):
        for t0, dt, traced, site, thread, raised in r.timeline:
            trace.span(r.name, "call", t0 * 1e6, dt * 1e6, thread,
                       {"site": site, "traces": traced, "raised": raised})
        for t in r.traces:
            trace.span("trace %s #%d" % (r.name, t.index), "trace", t.start * 1e6,
                       t.seconds * 1e6, t.tid, {"site": t.site, "reason": "; ".join(t.reason),
                                                "graph_ops": t.graph_ops})
    return trace


def write_chrome_trace(session, path):
    chrome_trace(session).write(path)
