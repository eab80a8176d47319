#!/usr/bin/env python3
"""tfscope conformance runner.

Runs every case under one backend and writes what happened as JSON, or compares two such files.

    runner.py --backend tf|tfscope --out results.json [case ...]
    runner.py --compare tf.json tfscope.json [--known conformance/known_differences.md]

A case is a Python file under conformance/cases/. It is executed with these names in its globals
(see conformance/hooks.py for the exact semantics; the summary is in conformance/README section of
known_differences.md):

    tf, np                        the backend module (tensorflow or tfscope) and numpy
    call(label, fn, *a, **kw)     fn(*a, **kw); records result or exception, then fn's tracing count
    concrete(label, fn, *a, **kw) fn.get_concrete_function(*a, **kw); records exception and tracing count
    count(label, fn)              records fn.experimental_get_tracing_count()
    record(label, value)          records a value (tensors/arrays/nests/scalars/reprs)
    attempt(label, thunk)         thunk(); records only success or the exception
    graph_ops(label, cf)          records Counter(n.op for n in cf.graph.as_graph_def().node)
    describe(label, cf)           graph_ops plus signatures, structured_input_signature, captures ...
    signatures(label, fn)         records fn.pretty_printed_concrete_signatures() (both forms)

Per event it also records the Python stdout lines, the stderr lines (tf.print), and the warning
records logged on the `tensorflow` / `tfscope` loggers while the event ran. Output produced
between events becomes an event of kind "out".

The backend runs in a worker child process (one per backend, reused for all cases); when the
worker dies (a crash in native code), the case it was running is recorded as crashed and a new
worker continues with the remaining cases.
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
    write_results(out_path, backend, meta, results, cases)
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
