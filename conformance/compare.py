"""Compares the results of the tf backend (the authority) with those of the tfscope backend.

What is compared, per event of a case (events are matched by position, and their kind and label
must agree): the tracing count, the result (integers, bools and strings exactly, floats within
1e-6 relative, NaN equal to NaN, dtypes and shapes exactly), the exception (type name and
normalised message), Python stdout lines, stderr lines (tf.print), warning records, op counts,
and each field of describe(). Plus the case-level error, if the case itself raised.
"""
import json
import math
import os
import re
import sys

FLOAT_RTOL = 1e-6
FLOAT_ATOL = 1e-30  # only so that 0.0 vs -0.0 / denormals compare equal

FIELDS = ("count", "result", "error", "ok", "stdout", "stderr", "warnings", "ops", "describe")
_KNOWN_LINE = re.compile(r"^- `([A-Za-z0-9_.\-]+)`(?:\s*\[([!A-Za-z_]+)\])?:\s*(.*\S)?\s*$")
# Conditions a known difference may be limited to, evaluated on the tf backend's meta.
CONDITIONS = {"onednn": lambda meta: meta.get("onednn") is True,
              "!onednn": lambda meta: meta.get("onednn") is False}
_LIVE_ONLY = re.compile(r"^#\s*conformance:\s*live-only:\s*(.*\S)\s*$")


def live_only_reason(case_path):
    """The reason of a case's `# conformance: live-only: REASON` line, or None."""
    try:
        with open(case_path) as f:
            for line in f:
                m = _LIVE_ONLY.match(line.rstrip("\n"))
                if m:
                    return m.group(1)
    except OSError:
        pass
    return None


def known_applies(entry, tf_meta):
    """An entry is (reason, condition or None); it applies when its condition holds for TF's run."""
    cond = entry[1]
    return cond is None or CONDITIONS[cond](tf_meta)


def load_known(path):
    """known_differences.md: lines `- `case_name` [condition]: reason` (reason required; the
    condition, one of CONDITIONS, optional). Returns {case: (reason, condition)}."""
    known, problems = {}, []
    if not path or not os.path.exists(path):
        return known, problems
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = _KNOWN_LINE.match(line.rstrip("\n"))
            if not m:
                continue
            case, cond, reason = m.group(1), m.group(2), (m.group(3) or "").strip()
            if not reason:
                problems.append(f"{path}:{n}: entry for {case} has no reason; it is ignored")
                continue
            if cond is not None and cond not in CONDITIONS:
                problems.append(f"{path}:{n}: entry for {case} has an unknown condition [{cond}]; "
                                f"it is ignored")
                continue
            known[case] = (reason, cond)
    return known, problems


def _isfloat(x):
    return isinstance(x, float)


def values_equal(a, b):
    """Deep equality with the float rule; returns True/False."""
    if type(a) is not type(b):
        # JSON may give int for a float that printed integral only if the producer wrote it so; we
        # encode Python floats as {"float": x}, so a type difference is a real difference
        return False
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= max(FLOAT_RTOL * max(abs(a), abs(b)), FLOAT_ATOL)
    if isinstance(a, list):
        return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(values_equal(a[k], b[k]) for k in a)
    return a == b


def _short(v, limit=600):
    s = json.dumps(v, sort_keys=True) if not isinstance(v, str) else repr(v)
    return s if len(s) <= limit else s[:limit] + f"... ({len(s)} chars)"


_MISSING = object()


def compare_event(te, se):
    """Returns (compared_fields, [(field, tf_value, tfscope_value)])."""
    diffs = []
    compared = []
    if (te.get("kind"), te.get("label")) != (se.get("kind"), se.get("label")):
        diffs.append(("event", f"{te.get('kind')} {te.get('label')!r}", f"{se.get('kind')} {se.get('label')!r}"))
        return ["event"], diffs
    for f in FIELDS:
        a, b = te.get(f, _MISSING), se.get(f, _MISSING)
        if a is _MISSING and b is _MISSING:
            continue
        if f == "describe" and isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b)):
                compared.append(f"describe.{k}")
                x, y = a.get(k, _MISSING), b.get(k, _MISSING)
                if x is _MISSING or y is _MISSING or not values_equal(x, y):
                    diffs.append((f"describe.{k}", None if x is _MISSING else x, None if y is _MISSING else y))
            continue
        compared.append(f)
        if a is _MISSING or b is _MISSING or not values_equal(a, b):
            diffs.append((f, "<absent>" if a is _MISSING else a, "<absent>" if b is _MISSING else b))
    return compared, diffs


def compare_case(tcase, scase):
    """Returns (rows, ok). rows: (index, kind, label, compared, diffs)."""
    rows = []
    ok = True
    for key in ("fatal", "crash"):
        if key in tcase:
            rows.append(("-", key, "", [key], [(key, tcase[key], scase.get(key) if scase else None)]))
            return rows, False
    if scase is None:
        rows.append(("-", "missing", "", ["case"], [("case", "ran", "not in tfscope results")]))
        return rows, False
    for key in ("fatal", "crash"):
        if key in scase:
            rows.append(("-", key, "", [key], [(key, "<absent>", scase[key])]))
            return rows, False
    tev, sev = tcase.get("events", []), scase.get("events", [])
    for i in range(max(len(tev), len(sev))):
        if i >= len(tev):
            e = sev[i]
            rows.append((i, e.get("kind"), e.get("label", ""), ["event"], [("event", "<absent>", _brief(e))]))
            ok = False
            continue
        if i >= len(sev):
            e = tev[i]
            rows.append((i, e.get("kind"), e.get("label", ""), ["event"], [("event", _brief(e), "<absent>")]))
            ok = False
            continue
        compared, diffs = compare_event(tev[i], sev[i])
        rows.append((i, tev[i].get("kind"), tev[i].get("label", ""), compared, diffs))
        ok = ok and not diffs
    a, b = tcase.get("case_error"), scase.get("case_error")
    if a is not None or b is not None:
        diffs = [] if values_equal(a, b) else [("case_error", a, b)]
        rows.append(("-", "case", "", ["case_error"], diffs))
        ok = ok and not diffs
    return rows, ok


def _brief(e):
    return {k: v for k, v in e.items() if k != "native_log"}


def main(tf_path, ts_path, known_path, quiet=False, out=sys.stdout):
    with open(tf_path) as f:
        tf_doc = json.load(f)
    with open(ts_path) as f:
        ts_doc = json.load(f)
    known, problems = load_known(known_path)
    for p in problems:
        print(f"warning: {p}", file=out)
    tf_meta = tf_doc.get("meta", {})
    known = {c: e[0] for c, e in known.items() if known_applies(e, tf_meta)}
    tcases = tf_doc.get("cases", {})
    scases = ts_doc.get("cases", {})
    passed = failed = 0
    known_hit, known_passing = [], []
    w = out.write
    w(f"tf: {json.dumps(tf_doc.get('meta', {}), sort_keys=True)}\n")
    w(f"tfscope: {json.dumps(ts_doc.get('meta', {}), sort_keys=True)}\n")
    for case in sorted(tcases):
        rows, ok = compare_case(tcases[case], scases.get(case))
        listed = case in known
        status = "PASS" if ok else ("KNOWN" if listed else "FAIL")
        if ok:
            passed += 1
            if listed:
                known_passing.append(case)
        elif listed:
            known_hit.append(case)
        else:
            failed += 1
        if quiet and ok:
            continue
        w(f"\n== {case}  [{status}]" + (f"  (known difference: {known[case]})" if listed and not ok else "") + "\n")
        w(f"   {'#':>3}  {'kind':10s} {'label':28s} {'compared':50s} result\n")
        for idx, kind, label, compared, diffs in rows:
            w(f"   {idx!s:>3}  {kind!s:10s} {label!s:28s} {','.join(compared):50s} "
              f"{'match' if not diffs else 'MISMATCH'}\n")
            for field, a, b in diffs:
                w(f"        {field}:\n          tf      = {_short(a)}\n          tfscope = {_short(b)}\n")
    extra = sorted(set(scases) - set(tcases))
    for c in extra:
        w(f"\nnote: case {c} is only in the tfscope results (not compared)\n")
    for c in known_passing:
        w(f"note: {c} is listed in known_differences.md but now matches: remove its entry\n")
    for c in sorted(set(known) - set(tcases)):
        w(f"note: known_differences.md lists {c}, which is not a case\n")
    if known_hit:
        w(f"known differences (listed, not counted as failures): {len(known_hit)}: {', '.join(known_hit)}\n")
    w(f"conformance: {passed} passed, {failed} failed\n")
    return 1 if failed else 0
