"""watch joined with tfscope lint: a retrace that a lint rule predicts cites the rule and line.

For each retrace, the user's file it was made from is linted once (tfscope.lint, the same rules
as `tfscope lint`), and the retracing findings (TFS1xx) are matched by place: a finding on the
call's line (a Python value or a fresh object passed per call: TFS103, TFS104, TFS106), or, for a
trace of a new Function object, a finding on the line that made the object or the def it wraps
(a tf.function created in a loop: TFS101, TFS102, TFS105)."""
from . import _session

_findings = {}  # full path -> its TFS1xx findings (or [] when it cannot be read or linted)


def _file_findings(path):
    got = _findings.get(path)
    if got is None:
        try:
            from .. import lint
            with open(path, "rb") as f:
                got = [x for x in lint.lint_source(f.read(), path, select=["TFS1"])]
        except Exception:  # an unreadable file or a module without the engine: nothing to cite
            got = []
        _findings[path] = got
    return got


def _place(site):
    return _session.site_files.get(site)


def _matches(t):
    places = []
    call = _place(t.site)
    if call:
        places.append(("call", call))
    if "new-function" in t.diff_kinds and 0 < t.obj_index <= len(t.record.objects):
        made = _place(t.record.objects[t.obj_index - 1])
        if made:
            places.append(("made", made))
    out = []
    for kind, (path, line) in places:
        for f in _file_findings(path):
            if f.line == line or (kind == "made" and f.function_first_line <= line <=
                                  f.function_last_line and f.function_first_line > 0):
                if f not in out:
                    out.append(f)
    return out


def cite(session):
    """Sets each retrace's `lint` to the findings that explain it (first traces cite nothing)."""
    for rec in session.functions():
        for t in rec.traces + [r for r, _ in rec.refused]:
            if t.diff_kinds == ["first"] or t.lint:
                continue
            t.lint = [{"code": f.code, "path": f.path, "line": f.line, "col": f.col,
                       "message": f.message} for f in _matches(t)]
