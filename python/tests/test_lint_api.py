"""tfscope.lint from Python: the labelled corpus through the Python API (each file's `# expect:`
header, confirmed under TF by tests/lint/confirm_with_tf.py), the same JSON as the command, the
join with a real run's ledger, and bad input as ValueError/TypeError."""
import json
import os
import re
import subprocess

import pytest

import tfscope as tf
import tfscope.lint as lint

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "lint", "corpus")
CLI = os.environ.get("TFSCOPE_CLI", os.path.join(ROOT, os.environ.get("BUILD", "build"), "tfscope"))


def expected_codes(path):
    with open(path) as f:
        head = f.readline()
    m = re.match(r"# expect: (.*)", head)
    assert m, f"{path}: no '# expect:' header"
    return set() if m.group(1).strip() == "none" else set(m.group(1).replace(",", " ").split())


def corpus_files():
    return sorted(os.path.join(CORPUS, f) for f in os.listdir(CORPUS) if f.endswith(".py"))


def test_corpus_labels_through_the_python_api():
    files = corpus_files()
    assert len(files) >= 120
    wrong = []
    for path in files:
        got = {f.code for f in lint.lint_source(open(path).read(), path)}
        if got != expected_codes(path):
            wrong.append((os.path.basename(path), sorted(got), sorted(expected_codes(path))))
    assert not wrong


def test_lint_paths_walks_a_directory_in_path_order():
    found = lint.lint_paths([CORPUS])
    paths = [f.path for f in found]
    assert paths == sorted(paths)
    assert {os.path.basename(p) for p in paths} == {
        os.path.basename(p) for p in corpus_files() if expected_codes(p)}


@pytest.mark.skipif(not os.path.exists(CLI), reason="the tfscope command is not built (make build)")
def test_same_findings_and_report_as_the_command():
    out = subprocess.run([CLI, "lint", "--no-config", "--format", "json", CORPUS],
                         capture_output=True, text=True)
    assert out.returncode == 1, out.stderr
    ours = lint.lint_paths([CORPUS])
    assert json.loads(lint.report(ours, "json")) == json.loads(out.stdout)
    cmd = [(f["path"], f["line"], f["col"], f["code"]) for f in json.loads(out.stdout)]
    assert [(f.path, f.line, f.col, f.code) for f in ours] == cmd


def test_position_message_and_hint_of_one_finding():
    src = ("import tensorflow as tf\n"
           "for i in range(3):\n"
           "    @tf.function\n"
           "    def f(x):\n"
           "        return x + 1\n"
           "    f(tf.constant(i))\n")
    (finding,) = lint.lint_source(src, "loop.py", select=["TFS101"])
    # at the def (line 4), as the command reports it
    assert (finding.path, finding.code, finding.line) == ("loop.py", "TFS101", 4)
    assert str(finding).startswith("loop.py:4:")
    assert finding.hint
    assert lint.lint_source(src, "loop.py", ignore=["TFS1"]) == []
    assert lint.lint_source(src.replace("def f(x):", "def f(x):  # noqa: TFS101"),
                            "loop.py", select=["TFS101"]) == []


def test_syntax_error_is_a_finding_not_an_exception():
    (finding,) = lint.lint_source("def f(:\n    pass\n", "bad.py")
    assert finding.code == "TFS000" and finding.line == 1


def test_rules_table():
    codes = [r.code for r in lint.rules()]
    assert codes == sorted(codes) and codes[0] == "TFS000" and len(codes) >= 20
    assert all(r.summary and r.hint for r in lint.rules())


def test_confirm_with_a_real_ledger():
    @tf.function
    def step(x, n):
        return x * n

    x = tf.constant(1.0)
    for i in range(3):
        step(x, i)  # a Python int per call: a trace per value
    code = step.python_function.__code__ if hasattr(step, "python_function") else None
    path = (code or test_confirm_with_a_real_ledger.__code__).co_filename
    src = open(path).read()
    findings = [f for f in lint.lint_source(src, path) if f.function == "step"]
    assert [f.code for f in findings] == ["TFS103"]
    (confirmed,) = lint.confirm(findings, step)
    assert confirmed.confirmed and "3 traces in 3 calls" in confirmed.evidence
    (again,) = lint.confirm(findings, [step.ledger_json()])
    assert again.confirmed


def test_bad_input():
    with pytest.raises(TypeError):
        lint.lint_source(42)
    with pytest.raises(TypeError):
        lint.lint_source("x = 1\n", select=[101])
    with pytest.raises(ValueError):
        lint.lint_source("x = 1\n", unroll_threshold=0)
    with pytest.raises(ValueError, match="does-not-exist"):
        lint.lint_paths(["/does-not-exist/x.py"])
    with pytest.raises(ValueError):
        lint.confirm([], "{not json")
    with pytest.raises(TypeError):
        lint.confirm([], 3.5)
    with pytest.raises(ValueError, match="text, json, sarif"):
        lint.report([], "xml")
