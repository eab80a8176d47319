"""`tfscope lint --ledger`: findings confirmed by the ledger of a real run under tfscope's Python
API (fn.ledger_json() carries the function's def and each trace's call site)."""
import json
import os
import runpy
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("TFSCOPE_CLI", os.path.join(ROOT, os.environ.get("BUILD", "build"), "tfscope"))

HAZARD = """import tfscope as tf


@tf.function
def step(x, n):
    print("tracing step")
    return x * n


x = tf.constant(1.0)
for i in range(3):
    step(x, i)
step(x, 2)
"""

CLEAN = HAZARD.replace("step(x, i)", "step(x, tf.constant(float(i)))").replace(
    'print("tracing step")', 'tf.print("running step")').replace("step(x, 2)", "step(x, tf.constant(2.0))")


def run_and_lint(tmp_path, source):
    script = tmp_path / "train.py"
    script.write_text(source)
    ns = runpy.run_path(str(script))
    ledger = json.loads(ns["step"].ledger_json())
    report = tmp_path / "report.json"
    report.write_text(json.dumps(ledger))
    out = subprocess.run([CLI, "lint", "--no-config", "--format", "json", "--ledger", str(report),
                          str(script)], capture_output=True, text=True)
    return ledger, out


@pytest.mark.skipif(not os.path.exists(CLI), reason="the tfscope command is not built (make build)")
def test_retrace_finding_is_confirmed_by_the_run(tmp_path, capsys):
    ledger, out = run_and_lint(tmp_path, HAZARD)
    assert ledger["function"] == "step"
    assert ledger["file"] == str(tmp_path / "train.py")
    assert ledger["line"] == 4  # the decorator's line, as __code__.co_firstlineno
    traced = [e for e in ledger["entries"] if e["traced"]]
    assert [e["call_site"] for e in traced] == ["%s:12" % (tmp_path / "train.py")] * 3
    assert out.returncode == 1, out.stderr
    findings = json.loads(out.stdout)
    by_code = {f["code"]: f for f in findings}
    assert sorted(by_code) == ["TFS103", "TFS201"]
    assert by_code["TFS103"]["line"] == 12 and by_code["TFS103"]["confirmed"]
    assert "3 traces in 4 calls" in by_code["TFS103"]["evidence"]
    assert "n: Literal[1] -> Literal[2]" in by_code["TFS103"]["evidence"]
    assert by_code["TFS201"]["confirmed"]
    assert "3 of 4 calls" in by_code["TFS201"]["evidence"]


@pytest.mark.skipif(not os.path.exists(CLI), reason="the tfscope command is not built (make build)")
def test_clean_program_has_no_findings_and_traces_once(tmp_path):
    ledger, out = run_and_lint(tmp_path, CLEAN)
    assert ledger["traces"] == 1
    assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(out.stdout) == []
