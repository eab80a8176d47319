"""The watch report as one self-contained HTML page (--html FILE): per function a timeline of its
calls with the traces marked and their reasons, the trace list with hints, the self-check, and
the graph of each concrete function drawn as inline SVG (a layered drawing computed here). No
network: the style and the small script are inline."""
import html

from . import _report

CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2430;background:#fbfbfd}
h1{font-size:20px;margin:0 0 4px}h2{font-size:17px;margin:0}
.meta{color:#5a6372;margin-bottom:16px}.function{background:#fff;border:1px solid #d9dde5;
border-radius:8px;padding:14px 18px;margin:14px 0}.stats{color:#3b4452;margin:4px 0 8px}
.ok{color:#17803d}.bad{color:#b42318;font-weight:600}.timeline{display:block;margin:6px 0}
.timeline .hit{fill:#9aa4b2}.timeline .trace{fill:#d92d20;cursor:pointer}
.timeline .axis{stroke:#c5cbd5}.timeline text{font-size:10px;fill:#5a6372}
ol.traces{margin:6px 0;padding-left:22px}li.trace{margin:3px 0}li.trace.sel{background:#fff4d6}
.hint{color:#475467;margin-left:12px}.hint:before{content:"hint: "}.why{font-family:monospace}
details{margin:6px 0}summary{cursor:pointer;color:#344054}.graphbox{overflow:auto;max-height:520px;
border:1px solid #eef0f4;border-radius:6px;background:#fcfcfe}
svg.graph .node rect{fill:#eef4ff;stroke:#6b8bd6;rx:5}svg.graph .node.var rect{fill:#fff3e0;
stroke:#d69a42}svg.graph .op{font:600 11px system-ui;fill:#1d2430}svg.graph .nm{font:10px
monospace;fill:#5a6372}svg.graph .edge{fill:none;stroke:#98a2b3;stroke-width:1.2}
svg.graph .edge.ctl{stroke-dasharray:4 3}.library{color:#5a6372}
table.greport{border-collapse:collapse;margin:6px 12px 6px 0;font-size:12px;display:inline-table;
vertical-align:top}table.greport td,
table.greport th{border:1px solid #e4e7ec;padding:2px 8px;text-align:left}
table.greport th{background:#f4f6fa}.greport-sig{font:12px monospace;margin:4px 0}
"""

SCRIPT = """
document.querySelectorAll('svg.timeline .trace').forEach(function (m) {
  m.addEventListener('click', function () {
    var li = document.getElementById(m.getAttribute('data-target'));
    if (!li) return;
    document.querySelectorAll('li.trace.sel').forEach(function (x) { x.classList.remove('sel'); });
    li.classList.add('sel');
    li.scrollIntoView({block: 'center'});
  });
});
document.body.setAttribute('data-ready', '1');
"""

NODE_W, NODE_H, COL, ROW = 150, 34, 170, 62


def _e(s):
    return html.escape(str(s), quote=True)


def layout(nodes):
    """Layers by longest path from the graph's sources (ops come in creation order, inputs
    first), each layer ordered by the mean position of its inputs; returns (positions, edges,
    width, height) with edges as (from, to, is_control)."""
    index = {n[0]: i for i, n in enumerate(nodes)}
    edges, preds = [], [[] for _ in nodes]
    for i, (_, _, inputs, controls) in enumerate(nodes):
        for names, ctl in ((inputs, False), (controls, True)):
            for name in names:
                j = index.get(name)
                if j is not None and j < i:
                    edges.append((j, i, ctl))
                    preds[i].append(j)
    depth = [0] * len(nodes)
    for i in range(len(nodes)):
        if preds[i]:
            depth[i] = 1 + max(depth[j] for j in preds[i])
    layers = {}
    for i, d in enumerate(depth):
        layers.setdefault(d, []).append(i)
    slot = [0.0] * len(nodes)
    for d in sorted(layers):
        members = layers[d]
        key = {i: (sum(slot[j] for j in preds[i]) / len(preds[i]) if preds[i] else float(i))
               for i in members}
        for k, i in enumerate(sorted(members, key=lambda i: (key[i], i))):
            slot[i] = k
    pos = [(10 + slot[i] * COL, 10 + depth[i] * ROW) for i in range(len(nodes))]
    width = 20 + (max(len(m) for m in layers.values()) if layers else 1) * COL
    height = 20 + (max(layers) + 1 if layers else 1) * ROW
    return pos, edges, width, height


def graph_svg(nodes, total_ops):
    pos, edges, width, height = layout(nodes)
    out = ['<svg class="graph" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'data-ops="%d" data-drawn="%d">' % (width, height, total_ops, len(nodes))]
    for a, b, ctl in edges:
        (xa, ya), (xb, yb) = pos[a], pos[b]
        x1, y1, x2, y2 = xa + NODE_W / 2, ya + NODE_H, xb + NODE_W / 2, yb
        mid = (y1 + y2) / 2
        out.append('<path class="edge%s" d="M%.0f %.0fC%.0f %.0f %.0f %.0f %.0f %.0f"/>' % (
            " ctl" if ctl else "", x1, y1, x1, mid, x2, mid, x2, y2))
    for (name, op, _, _), (x, y) in zip(nodes, pos):
        var = " var" if op in ("VarHandleOp", "ReadVariableOp", "AssignVariableOp",
                               "AssignSubVariableOp", "AssignAddVariableOp") else ""
        short = name if len(name) <= 24 else name[:11] + "\u2026" + name[-11:]
        out.append('<g class="node%s" data-op="%s" data-name="%s" transform="translate(%.0f,%.0f)">'
                   '<title>%s (%s)</title><rect width="%d" height="%d"/>'
                   '<text class="op" x="8" y="14">%s</text><text class="nm" x="8" y="27">%s</text>'
                   '</g>' % (var, _e(op), _e(name), x, y, _e(name), _e(op), NODE_W, NODE_H,
                             _e(op[:22]), _e(short)))
    out.append("</svg>")
    return "".join(out)


def timeline_svg(rec, fid):
    """One mark per call by call number (time and site in its tooltip); traces red and tall."""
    calls = sorted(rec.timeline)
    n = max(len(calls), max((t.call for t in rec.traces), default=0), 1)
    width = 900
    step = (width - 40) / max(n, 1)
    out = ['<svg class="timeline" xmlns="http://www.w3.org/2000/svg" width="%d" height="54" '
           'data-calls="%d">' % (width, len(calls)),
           '<line class="axis" x1="20" y1="40" x2="%d" y2="40"/>' % (width - 20)]
    traced_calls = {t.call for t in rec.traces}
    if len(calls) <= 1500:
        for k, (t0, dt, traced, site, _, raised) in enumerate(calls, 1):
            if k in traced_calls:
                continue
            out.append('<rect class="hit" x="%.1f" y="30" width="%.1f" height="10">'
                       '<title>call %d at %s: %s, %.3f ms at %.3f s%s</title></rect>' % (
                           20 + (k - 1) * step, max(step - 1, 1), k, _e(site),
                           "hit" if not traced else "traced", dt * 1e3, t0,
                           " (raised)" if raised else ""))
    else:  # many calls: the hits as one band
        out.append('<rect class="hit" x="20" y="34" width="%d" height="6"><title>%d calls</title>'
                   '</rect>' % (width - 40, len(calls)))
    for t in rec.traces:
        x = 20 + (max(t.call, 1) - 1) * step + max(step - 1, 1) / 2
        out.append('<circle class="trace" cx="%.1f" cy="20" r="6" data-call="%d" '
                   'data-target="%s-t%d" data-reason="%s"><title>trace %d (call %d at %s): %s'
                   '</title></circle>' % (x, t.call, fid, t.index, _e("; ".join(t.reason)),
                                          t.index, t.call, _e(t.site), _e("; ".join(t.reason))))
    out.append('<text x="20" y="52">call 1</text><text x="%d" y="52" text-anchor="end">call %d'
               '</text></svg>' % (width - 20, n))
    return "".join(out)


def _function_html(rec, k):
    fid = "f%d" % k
    hits = rec.calls - rec.traced_calls - rec.failed_calls
    parts = ['<section class="function" id="%s" data-name="%s" data-kind="%s" data-calls="%d" '
             'data-traces="%d">' % (fid, _e(rec.name), rec.kind, rec.calls, len(rec.traces)),
             "<h2>%s</h2>" % _e(rec.name),
             '<div class="stats">defined at %s%s &middot; calls %d (%d hit, %d traced) &middot; '
             'traces %d &middot; trace %.1f ms, run %.1f ms &middot; concrete functions kept %d'
             '</div>' % (_e(rec.defined_at), "" if len(rec.objects) <= 1 else
                         " &middot; %d Function objects" % len(rec.objects), rec.calls, hits,
                         rec.traced_calls, len(rec.traces), rec.trace_seconds * 1e3,
                         rec.run_seconds * 1e3, rec.kept())]
    led = rec.selfcheck
    if led is not None:
        compared, agreed, dis = led.final()
        nm = sum(led.not_modelled.values())
        extra = (" (%d not modelled: %s)" % (nm, _e("; ".join(sorted(led.not_modelled))))
                 if nm else "")
        if dis:
            parts.append('<div class="selfcheck bad">self-check: TF and tfscope disagree on '
                         '%d of %d calls%s<ul>%s</ul></div>' % (
                             len(dis), compared, extra,
                             "".join("<li>%s</li>" % _e(d.text()) for d in dis)))
        else:
            parts.append('<div class="selfcheck ok">self-check: tfscope\'s rules agree with TF '
                         'on all %d calls compared%s</div>' % (compared, extra))
    parts.append(timeline_svg(rec, fid))
    parts.append('<ol class="traces">')
    for t in rec.traces:
        where = ("call %d" % t.call) if t.call else "outside a call"
        parts.append('<li class="trace" id="%s-t%d" data-kinds="%s"><b>trace %d</b> (%s at %s, '
                     '%.1f ms, %s ops): <span class="why">%s</span>%s</li>' % (
                         fid, t.index, _e(" ".join(t.diff_kinds)), t.index, where, _e(t.site),
                         t.seconds * 1e3, "?" if t.graph_ops is None else t.graph_ops,
                         _e("; ".join(t.reason)),
                         "".join('<div class="hint">%s</div>' % _e(h) for h in t.hint)))
    parts.append("</ol>")
    for i, t in enumerate(rec.traces):
        if not t.graph:
            continue
        parts.append('<details class="concrete"%s><summary>graph of trace %d: %s (%d ops%s)'
                     '</summary>%s<div class="graphbox">%s</div></details>' % (
                         " open" if i < 2 else "", t.index, _e(t.signature()), t.graph_ops,
                         "" if len(t.graph) == t.graph_ops else ", the first %d drawn" %
                         len(t.graph), graph_report_html(t.graph_report),
                         graph_svg(t.graph, t.graph_ops)))
    parts.append("</section>")
    return "\n".join(parts)


def graph_report_html(g):
    """The GraphReport tfscope's GraphDef reader gave: signature, ops by type, captures,
    inputs and outputs, library functions."""
    if g is None:
        return ""

    def rows(ts, extra=False):
        return "".join("<tr><td>%s</td><td>%s</td><td>%s</td>%s</tr>" % (
            _e(t["name"]), _e(t["dtype"]), _e(t["shape"]),
            "<td>%s</td>" % _e(t["kind"]) if extra else "") for t in ts)

    ops = "".join("<tr><td>%s</td><td>%d</td></tr>" % (_e(op), n)
                  for op, n in sorted(g["op_counts"].items(), key=lambda kv: (-kv[1], kv[0])))
    out = ['<div class="greport" data-function="%s" data-nodes="%d">' % (_e(g["function"]),
                                                                        g["num_nodes"]),
           '<div class="greport-sig">%s %s</div>' % (_e(g["function"]), _e(g["signature"])),
           '<table class="greport ops"><tr><th>op type</th><th>count</th></tr>%s</table>' % ops]
    for title, key, extra in (("inputs", "inputs", False), ("captures", "captures", True),
                              ("outputs", "outputs", False)):
        if g[key]:
            out.append('<table class="greport %s"><tr><th>%s</th><th>dtype</th><th>shape</th>%s'
                       '</tr>%s</table>' % (key, title, "<th>kind</th>" if extra else "",
                                            rows(g[key], extra)))
    if g["library"]:
        out.append('<div class="library">library: %s</div>' % _e(", ".join(g["library"])))
    out.append("</div>")
    return "".join(out)


def page(session):
    recs = sorted(_report._active(session), key=lambda r: -r.trace_seconds)
    users = [r for r in recs if r.kind != "library"]
    library = [r for r in recs if r.kind == "library"]
    head = _report.summary(session).splitlines()
    body = ['<h1>tfscope watch</h1>', '<div class="meta" id="summary">%s</div>' % "<br>".join(
        _e(line) for line in head[:2] if line)]
    for k, r in enumerate(users, 1):
        body.append(_function_html(r, k))
    if library:
        body.append('<p class="library">TensorFlow\'s own: %s</p>' % _e(", ".join(
            "%s (%d calls, %d traces)" % (r.name, r.calls, len(r.traces)) for r in library)))
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<title>tfscope watch report</title><style>%s</style></head><body>\n%s\n'
            '<script>%s</script></body></html>\n' % (CSS, "\n".join(body), SCRIPT))


def write(session, path):
    with open(path, "w", encoding="utf-8") as f:
        f.write(page(session))
