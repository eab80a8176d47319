#!/usr/bin/env python3
"""The watch self-check over the conformance suite: every case's TF side runs under real
TensorFlow 2.21 with `tfscope watch` on, and tfscope's own tracing rules predict every call of
every tf.function; prints the calls compared, the disagreements (each with the conformance case
watch wrote for it) and what was not modelled, by reason.

    conformance/watch_selfcheck.py [--json FILE] [--cases-out DIR] [CASE-or-PREFIX ...]

Runs under any Python that imports tfscope (the project's .venv); the cases run under the oracle's
(conformance/oracle_env.sh). A disagreement in a case listed in known_differences.md is reported
as KNOWN. Exit status 0 when no other call disagrees, 1 otherwise, 2 when a worker could not run.
"""
import argparse
import glob
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare as _compare  # noqa: E402  (known_differences.md, as the suite reads it)

# Started in the conformance worker only (sitecustomize runs in every process on the path).
SITECUSTOMIZE = '''
import atexit, json, os, sys
if os.path.basename(sys.argv[0]) == "worker.py":
    import tfscope.watch as _tw
    _watch = _tw.Watch(self_check=True).start()

    def _tfscope_selfcheck_end():
        _watch.stop()
        out = os.environ["TFSCOPE_SELFCHECK_DIR"]
        pid = os.getpid()
        compared, agreed, not_modelled, dis = _watch.self_check()
        paths = _watch.write_cases(os.path.join(out, "cases-%d" % pid)) if dis else []
        reasons = {}
        for r in _watch.functions:
            if r.selfcheck is not None:
                for why, n in r.selfcheck.not_modelled.items():
                    reasons[why] = reasons.get(why, 0) + n
        with open(os.path.join(out, "selfcheck-%d.json" % pid), "w") as f:
            json.dump({"compared": compared, "agreed": agreed, "not_modelled": reasons,
                       "functions": sum(1 for r in _watch.functions if r.selfcheck is not None),
                       "disagreements": [{"function": r.name, "defined_at": r.defined_at,
                                          "text": d.text(), "case": p}
                                         for (r, d), p in zip(dis, paths)]}, f)

    atexit.register(_tfscope_selfcheck_end)
'''


def oracle_python():
    env_py = os.environ.get("TFSCOPE_ORACLE_PY")
    if env_py:
        return env_py
    out = subprocess.run([os.path.join(HERE, "oracle_env.sh")], check=True, capture_output=True,
                         text=True).stdout.strip()
    return out.splitlines()[-1]


def run(cases, tmp):
    """Runs the cases' TF side under watch; returns the merged self-check of its workers."""
    spec = importlib.util.find_spec("tfscope")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("watch_selfcheck: tfscope is not importable here; install the package first")
    pkgs = os.path.join(tmp, "pkgs")
    os.makedirs(pkgs)
    os.symlink(list(spec.submodule_search_locations)[0], os.path.join(pkgs, "tfscope"))
    with open(os.path.join(pkgs, "sitecustomize.py"), "w") as f:
        f.write(SITECUSTOMIZE)
    out = os.path.join(tmp, "out")
    os.makedirs(out)
    env = dict(os.environ, PYTHONPATH=pkgs, TFSCOPE_SELFCHECK_DIR=out, TF_CPP_MIN_LOG_LEVEL="3",
               PYTHONDONTWRITEBYTECODE="1")
    for v in ("TFSCOPE_WATCH", "TFSCOPE_MAX_TRACES", "TFSCOPE_FAIL_ON_RETRACE"):
        env.pop(v, None)
    p = subprocess.run([oracle_python(), os.path.join(HERE, "runner.py"), "--backend", "tf",
                        "--out", os.path.join(tmp, "tf.json")] + list(cases), env=env,
                       stdin=subprocess.DEVNULL)
    merged = {"compared": 0, "agreed": 0, "functions": 0, "not_modelled": {},
              "disagreements": [], "workers": 0, "runner_exit": p.returncode}
    for path in sorted(glob.glob(os.path.join(out, "selfcheck-*.json"))):
        with open(path) as f:
            part = json.load(f)
        merged["workers"] += 1
        for k in ("compared", "agreed", "functions"):
            merged[k] += part[k]
        for why, n in part["not_modelled"].items():
            merged["not_modelled"][why] = merged["not_modelled"].get(why, 0) + n
        merged["disagreements"] += part["disagreements"]
    with open(os.path.join(tmp, "tf.json")) as f:
        tf_run = json.load(f)
    merged["cases"] = len(tf_run["cases"])
    known, _ = _compare.load_known(os.path.join(HERE, "known_differences.md"))
    for d in merged["disagreements"]:
        case = os.path.basename(d["defined_at"].rsplit(":", 1)[0])[:-3]
        entry = known.get(case)
        if entry is not None and _compare.known_applies(entry, tf_run.get("meta", {})):
            d["known"] = "%s: %s" % (case, entry[0])
    return merged


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", metavar="FILE", help="write the merged self-check as JSON")
    ap.add_argument("--cases-out", metavar="DIR",
                    help="copy the conformance cases written for disagreements here")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="watch-selfcheck-")
    try:
        m = run(a.cases, tmp)
        if a.cases_out:
            os.makedirs(a.cases_out, exist_ok=True)
            for d in m["disagreements"]:
                if d["case"]:
                    dest = os.path.join(a.cases_out, os.path.basename(d["case"]))
                    shutil.copy(d["case"], dest)
                    d["case"] = dest
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(m, f, indent=1)
    if m["workers"] == 0:
        print("watch self-check: no worker report (runner exit %d)" % m["runner_exit"])
        return 2
    nm = sum(m["not_modelled"].values())
    known = sum(1 for d in m["disagreements"] if d.get("known"))
    print("watch self-check: %d conformance cases, %d tf.functions, %d calls compared, "
          "%d disagreements (+%d known), %d not modelled" % (
              m["cases"], m["functions"], m["compared"], len(m["disagreements"]) - known, known,
              nm))
    for why, n in sorted(m["not_modelled"].items(), key=lambda kv: -kv[1]):
        print("  not modelled: %d: %s" % (n, why))
    for d in m["disagreements"]:
        print("  %s: %s (%s): %s%s" % ("KNOWN" if d.get("known") else "DISAGREES", d["function"],
                                       d["defined_at"], d["text"],
                                       " -> %s" % d["case"] if a.cases_out else ""))
        if d.get("known"):
            print("    listed in known_differences.md: %s" % d["known"])
    return 1 if any(not d.get("known") for d in m["disagreements"]) else 0


if __name__ == "__main__":
    sys.exit(main())
