"""Runs a program under real TensorFlow 2.21 (the conformance oracle's environment) with tfscope
importable, for the watch tests. The oracle venv is made on first use by conformance/oracle_env.sh
(as the conformance suite does), so `make test` works from a clean checkout."""
import functools
import json
import os
import subprocess
import sys

import tfscope

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "watch_programs")


@functools.lru_cache(maxsize=None)
def oracle_python():
    env_py = os.environ.get("TFSCOPE_ORACLE_PY")
    if env_py:
        return env_py
    out = subprocess.run([os.path.join(ROOT, "conformance", "oracle_env.sh")], check=True,
                         capture_output=True, text=True).stdout.strip()
    return out.splitlines()[-1]


def tfscope_path(tmp):
    """A folder holding only the installed tfscope package (no numpy or pytest of this venv)."""
    d = os.path.join(str(tmp), "pkgs")
    os.makedirs(d, exist_ok=True)
    link = os.path.join(d, "tfscope")
    if not os.path.exists(link):
        os.symlink(os.path.dirname(os.path.abspath(tfscope.__file__)), link)
    return d


def run(tmp, argv, env=None, cwd=None, check=True):
    """Runs `oracle-python argv...` with tfscope importable; returns the CompletedProcess."""
    e = dict(os.environ)
    e.pop("TFSCOPE_WATCH", None)
    e.pop("TFSCOPE_MAX_TRACES", None)
    e.update({"PYTHONPATH": tfscope_path(tmp), "TF_CPP_MIN_LOG_LEVEL": "3",
              "PYTHONDONTWRITEBYTECODE": "1"})
    e.update(env or {})
    p = subprocess.run([oracle_python()] + list(argv), capture_output=True, text=True, env=e,
                       cwd=cwd or str(tmp), timeout=600)
    if check and p.returncode != 0:
        raise AssertionError("exit %d\nstdout:\n%s\nstderr:\n%s" % (p.returncode, p.stdout,
                                                                    p.stderr[-6000:]))
    return p


def watch(tmp, program, *args, options=(), env=None):
    """Runs watch on a program of watch_programs/; returns (report dict, ledger, process)."""
    report = os.path.join(str(tmp), "report.json")
    ledger = os.path.join(str(tmp), "ledger.json")
    p = run(tmp, ["-m", "tfscope", "watch", "--json", report] + list(options) +
            [os.path.join(PROGRAMS, program), ledger] + list(args), env=env)
    with open(report) as f:
        rep = json.load(f)
    led = []
    if os.path.exists(ledger):
        with open(ledger) as f:
            led = json.load(f)
    return rep, led, p


def line_of(program, text, nth=1):
    """1-based line of the nth line of a program containing `text`."""
    n = 0
    with open(os.path.join(PROGRAMS, program)) as f:
        for i, line in enumerate(f, 1):
            if text in line:
                n += 1
                if n == nth:
                    return i
    raise AssertionError("%r not in %s" % (text, program))


def function(rep, name):
    for f in rep["functions"]:
        if f["name"] == name:
            return f
    raise AssertionError("no %r in %s" % (name, [f["name"] for f in rep["functions"]]))


def traced_per_call(ledger_rows):
    """TF's own trace count per call, from (class, id, count after the call) rows."""
    last, out = {}, []
    for _, obj, count in ledger_rows:
        out.append(count - last.get(obj, 0))
        last[obj] = count
    return out


if __name__ == "__main__":
    sys.exit("a helper of test_watch.py")
