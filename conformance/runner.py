#!/usr/bin/env python3
"""tfscope conformance runner.

Runs every case under one backend and writes what happened as JSON, or compares two such files.

    runner.py --backend tf|tfscope --out results.json [CASE-or-PREFIX ...]
    runner.py --compare tf.json tfscope.json [--known known_differences.md] [--quiet]
    runner.py --record tf.json expected_tf.json
    runner.py --list

A case is a Python file conformance/cases/NAME.py (its docstring's first line describes it). It is
run once per backend, in a fresh globals dict holding `tf` (the `tensorflow` or the `tfscope`
module), `np` (numpy) and the hooks below. The hooks are the only things the runner calls on the
backend's objects besides what the case itself does:

    call(label, fn, *args, **kwargs)      r = fn(*args, **kwargs); records the result (see encoding)
                                          or the exception (type(e).__name__, str(e)); then, when fn
                                          has experimental_get_tracing_count(), records it (also after
                                          an exception). Returns r, or None on exception.
    concrete(label, fn, *args, **kwargs)  cf = fn.get_concrete_function(*args, **kwargs); records the
                                          exception if any and fn's tracing count. Returns cf or None.
    count(label, fn)                      records fn.experimental_get_tracing_count().
    record(label, value)                  records encode(value).
    attempt(label, thunk)                 r = thunk(); records only "ok" or the exception. Returns r.
    graph_ops(label, cf)                  records collections.Counter(n.op for n in
                                          cf.graph.as_graph_def().node) as a sorted dict.
    describe(label, cf)                   records, each field separately (a failing field records its
                                          exception): ops (as graph_ops), signature =
                                          cf.pretty_printed_signature(verbose=False), signature_verbose
                                          = cf.pretty_printed_signature(), structured_input_signature =
                                          repr(...), structured_outputs = repr(...), inputs =
                                          [repr(t) for t in cf.inputs], captured_inputs =
                                          [{"dtype": repr(t.dtype), "shape": repr(t.shape)} ...].
    signatures(label, fn)                 records fn.pretty_printed_concrete_signatures() and
                                          fn.pretty_printed_concrete_signatures(verbose=False).

Encoding of recorded values: None/bool/int/str as themselves; float -> {"float"}; anything with a
.numpy() method (tensors, variables) -> {"tensor": {array (flat), dtype (numpy's name), shape}};
numpy arrays -> {"ndarray"}, numpy scalars -> {"npscalar"}; list/tuple/dict/namedtuple keep their
kind; bytes -> {"bytes"}; anything else -> {"repr": repr(value)}. Every text is normalised
(normalize.py: addresses, ids, uids, paths).

Per event the worker also records what appeared while it ran: Python/C++ stdout lines ("stdout"),
stderr lines ("stderr": tf.print's default stream; glog-format native log lines are kept apart
and not compared), and the records logged on the `tensorflow` and `tfscope` Python loggers
("warnings", as "LEVEL: message"; the frequent-retracing warning). Output produced between hooks
becomes an event of kind "out". A case that raises outside the hooks records "case_error".

Each case's code objects get a unique unused constant appended (see worker._unique_code) so that
identical `def`s in two cases do not share TF's per-__code__ retracing detector or AutoGraph cache.

The backend runs in a worker child process (worker.py), one per backend for all cases; when it
dies (a crash in native code) the case it was running is recorded as crashed and a new worker goes
on with the remaining cases. Output JSON: {"backend", "meta": {version, numpy, python},
"cases": {NAME: {"events": [...], "case_error"?, "crash"?, "fatal"?}}}. The tf backend's meta
also says whether TF runs its oneDNN kernels here ("onednn"), which known_differences.md entries
may depend on.

--record writes the committed record of TF's behaviour from a TF result: a case marked
`# conformance: live-only: REASON` (its TF results depend on the machine) is recorded as
{"live_only": REASON} instead of its events.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare as _compare  # noqa: E402

CASES_DIR = os.path.join(HERE, "cases")


def list_cases(selected):
    all_cases = sorted(f[:-3] for f in os.listdir(CASES_DIR) if f.endswith(".py") and not f.startswith("_"))
    if not selected:
        return all_cases
    out = []
    for s in selected:
        s = os.path.basename(s)
        if s.endswith(".py"):
            s = s[:-3]
        if s not in all_cases:
            # allow a prefix: every case whose name starts with it
            matches = [c for c in all_cases if c.startswith(s)]
            if not matches:
                sys.exit(f"runner: no case named {s!r} in {CASES_DIR}")
            out.extend(matches)
        else:
            out.append(s)
    return out


def run_backend(backend, out_path, cases, timeout):
    """Runs the cases in worker processes (a new one only after a crash) and writes out_path."""
    results = {}
    remaining = list(cases)
    meta = {}
    progress = out_path + ".progress.jsonl"
    while remaining:
        if os.path.exists(progress):
            os.unlink(progress)
        cmd = [sys.executable, os.path.join(HERE, "worker.py"), "--backend", backend, "--progress", progress,
               "--timeout", str(timeout), *remaining]
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL)
        started = None
        if os.path.exists(progress):
            with open(progress) as f:
                for line in f:
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        msg = json.loads(line)
                    except ValueError:
                        continue  # a torn last line after a crash
                    if msg.get("kind") == "meta":
                        meta = msg["meta"]
                    elif msg.get("kind") == "start":
                        started = msg["case"]
                    elif msg.get("kind") == "result":
                        results[msg["case"]] = msg["result"]
                        started = None
                    elif msg.get("kind") == "fatal":
                        # the backend could not even be imported: every remaining case fails the same way
                        for c in remaining:
                            if c not in results:
                                results[c] = {"events": [], "fatal": msg["error"]}
                        print(f"runner: backend {backend!r} unusable: {msg['error']['type']}: "
                              f"{msg['error']['message']}", file=sys.stderr)
                        write_results(out_path, backend, meta, results, cases)
                        return 3
        done = set(results)
        if proc.returncode != 0 and started is not None and started not in done:
            results[started] = {"events": [], "crash": f"worker exited with status {proc.returncode} "
                                                      f"while running this case"}
            done.add(started)
            print(f"runner: worker crashed in case {started} (status {proc.returncode}); continuing",
                  file=sys.stderr)
        new_remaining = [c for c in remaining if c not in done]
        if len(new_remaining) == len(remaining):
            # no progress at all: give up on the rest rather than loop forever
            for c in new_remaining:
                results[c] = {"events": [], "crash": f"worker exited with status {proc.returncode} before it ran"}
            break
        remaining = new_remaining
    if os.path.exists(progress):
        os.unlink(progress)
    if backend == "tf":
        meta["onednn"] = tf_onednn_enabled()
    write_results(out_path, backend, meta, results, cases)
    return 0


def tf_onednn_enabled():
    """Whether TF (this interpreter's) runs its oneDNN kernels on this machine, as TF decides."""
    code = ("import os; os.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'\n"
            "from tensorflow.python.util import _pywrap_util_port as p; print(int(p.IsMklEnabled()))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return r.stdout.strip().endswith("1") if r.returncode == 0 else None


def record_expected(tf_path, out_path):
    with open(tf_path) as f:
        doc = json.load(f)
    try:  # a case TF still behaves the same in keeps its old record (no churn from log timestamps)
        with open(out_path) as f:
            previous = json.load(f).get("cases", {})
    except (OSError, ValueError):
        previous = {}
    for case, events in doc.get("cases", {}).items():
        reason = _compare.live_only_reason(os.path.join(CASES_DIR, case + ".py"))
        if reason:
            doc["cases"][case] = {"live_only": reason}
        elif case in previous and "live_only" not in previous[case] \
                and _compare.compare_case(events, previous[case])[1]:
            doc["cases"][case] = previous[case]
    doc.get("meta", {}).pop("onednn", None)
    tmp = out_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, out_path)
    return 0


def write_results(out_path, backend, meta, results, cases):
    doc = {"backend": backend, "meta": meta, "cases": {c: results[c] for c in cases if c in results}}
    tmp = out_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, out_path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backend", choices=["tf", "tfscope"])
    ap.add_argument("--out")
    ap.add_argument("--compare", nargs=2, metavar=("TF_JSON", "TFSCOPE_JSON"))
    ap.add_argument("--record", nargs=2, metavar=("TF_JSON", "EXPECTED_JSON"))
    ap.add_argument("--known", default=os.path.join(HERE, "known_differences.md"))
    ap.add_argument("--timeout", type=int, default=120, help="seconds per case")
    ap.add_argument("--list", action="store_true", help="list the cases and their descriptions")
    ap.add_argument("--quiet", action="store_true", help="with --compare: print only failing cases' tables")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args(argv)
    if a.list:
        for c in list_cases(a.cases):
            print(f"{c:40s} {case_description(c)}")
        return 0
    if a.compare:
        return _compare.main(a.compare[0], a.compare[1], a.known, quiet=a.quiet)
    if a.record:
        return record_expected(*a.record)
    if not a.backend or not a.out:
        ap.error("need --backend and --out, or --compare")
    return run_backend(a.backend, a.out, list_cases(a.cases), a.timeout)


def case_description(case):
    with open(os.path.join(CASES_DIR, case + ".py")) as f:
        for line in f:
            line = line.strip()
            if line.startswith('"""'):
                return line.strip('"').strip()
            if line.startswith("#"):
                return line.lstrip("#").strip()
    return ""


if __name__ == "__main__":
    sys.exit(main())
