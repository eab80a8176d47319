"""watch's report files on real TensorFlow 2.21: the --html page in headless Chromium (it loads
without console errors, fetches nothing, and holds per function the timeline with each trace and
its reason, the trace list and each concrete function's graph, op for op), and the C++ `tfscope
watch` command, which runs the same as `python -m tfscope watch`."""
import html
import json
import os
import re
import shutil
import struct
import subprocess

import pytest

import watch_oracle as wo

P = "basics.py"
ARTIFACTS = os.path.join(wo.ROOT, "build", "test-artifacts")


def _chromium():
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        pytest.fail("headless Chromium is needed (Debian's chromium; scripts/install-deps.sh "
                    "installs it)")
    return exe


def _browser(args, tmp):
    base = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--user-data-dir=%s" % (tmp / "chromium-profile")]
    return subprocess.run(base + args, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def html_report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("html")
    page = tmp / "report.html"
    rep, _, p = wo.watch(tmp, P, options=["--html", str(page)])
    return rep, page, tmp


def test_html_page_loads_in_chromium_without_errors_and_fetches_nothing(html_report):
    _, page, tmp = html_report
    text = page.read_text()
    # self-contained: no stylesheet, script or image is fetched
    assert not re.search(r"<link|<img|\ssrc=|\shref=|@import|url\(", text)
    p = _browser(["--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri()], tmp)
    assert p.returncode == 0, p.stderr[-2000:]
    console = [line for line in p.stderr.splitlines() if "CONSOLE" in line]
    assert console == []
    # the page's script ran to its end (it marks the body last)
    assert 'data-ready="1"' in p.stdout


def _sections(dom):
    return {m.group(2): m.group(0) for m in re.finditer(
        r'<section class="function" id="(f\d+)" data-name="([^"]*)".*?</section>', dom, re.S)}


def test_html_has_each_functions_timeline_traces_and_graphs(html_report):
    rep, page, tmp = html_report
    dom = _browser(["--dump-dom", page.as_uri()], tmp).stdout
    sections = _sections(dom)
    names = {f["name"] for f in rep["functions"]}
    assert set(sections) == {n.replace("<", "&lt;").replace(">", "&gt;") for n in names}
    for f in rep["functions"]:
        s = sections[f["name"].replace("<", "&lt;").replace(">", "&gt;")]
        assert 'data-calls="%d" data-traces="%d"' % (f["calls"], f["traces"]) in s
        # the timeline: one red mark per trace, at its call, with its reason
        marks = re.findall(r'<circle class="trace"[^>]*data-call="(\d+)"[^>]*data-reason="([^"]*)"',
                           s)
        assert [(int(c), r) for c, r in marks] == [
            (t["call"], "; ".join(t["reason"]).replace("&", "&amp;").replace('"', "&quot;")
             .replace("<", "&lt;").replace(">", "&gt;")) for t in f["trace_list"]]
        assert len(re.findall(r'<li class="trace"', s)) == f["traces"]
        # one drawn graph per trace, as many op nodes as the concrete function has ops
        graphs = re.findall(r'<svg class="graph"[^>]*data-ops="(\d+)" data-drawn="(\d+)"', s)
        assert [int(o) for o, _ in graphs] == [t["graph_ops"] for t in f["trace_list"]]
        for g in re.findall(r'<svg class="graph".*?</svg>', s, re.S):
            assert len(re.findall(r'<g class="node', g)) == int(
                re.search(r'data-drawn="(\d+)"', g).group(1))
        # beside each drawing, the GraphReport tfscope's GraphDef reader gave: ops by type that
        # sum to the op count, as many rows as TF's graph has op types
        reports = re.findall(r'<div class="greport" data-function="([^"]*)" data-nodes="(\d+)">'
                             r'(.*?)</table>', s, re.S)
        assert [(html.unescape(n), int(k)) for n, k, _ in reports] == [
            (t["graph_report"]["function"], t["graph_ops"]) for t in f["trace_list"]]
        for (_, _, table), t in zip(reports, f["trace_list"]):
            rows = re.findall(r"<tr><td>([^<]*)</td><td>(\d+)</td></tr>", table)
            assert {op: int(n) for op, n in rows} == t["graph_report"]["op_counts"]
        assert "self-check: tfscope's rules agree with TF on all %d calls compared" % (
            f["self_check"]["compared"]) in s.replace("&#x27;", "'")


def test_html_graph_is_the_traced_graph(html_report):
    """train_step's first graph: the ops TF traced (x * w read and assigned), by type."""
    rep, page, tmp = html_report
    dom = _browser(["--dump-dom", page.as_uri()], tmp).stdout
    s = _sections(dom)["train_step"]
    g = re.search(r'<svg class="graph".*?</svg>', s, re.S).group(0)
    ops = sorted(re.findall(r'<g class="node[^"]*" data-op="([^"]*)"', g))
    assert "AssignAddVariableOp" in ops and ops.count("Placeholder") == 2
    assert len(ops) == wo.function(rep, "train_step")["trace_list"][0]["graph_ops"]


def _png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_html_screenshot_is_kept(html_report):
    _, page, tmp = html_report
    os.makedirs(ARTIFACTS, exist_ok=True)
    shot = os.path.join(ARTIFACTS, "watch_report.png")
    if os.path.exists(shot):
        os.unlink(shot)
    p = _browser(["--hide-scrollbars", "--window-size=1200,1400", "--screenshot=%s" % shot,
                  page.as_uri()], tmp)
    assert p.returncode == 0, p.stderr[-2000:]
    assert _png_size(shot) == (1200, 1400)
    assert os.path.getsize(shot) > 20000  # not a blank page


def _installed_binary():
    import tfscope
    exe = os.path.join(os.path.dirname(tfscope.__file__), "_bin", "tfscope")
    if not os.access(exe, os.X_OK):
        pytest.fail("the installed package carries no tfscope command (%s)" % exe)
    return exe


def test_cpp_watch_command_runs_python_watch(tmp_path):
    exe = _installed_binary()
    a = tmp_path / "a"
    b = tmp_path / "b"
    rep_py, _, p_py = wo.watch(a, P)
    env = dict(os.environ, TFSCOPE_PYTHON=wo.oracle_python(), PYTHONPATH=wo.tfscope_path(b),
               TF_CPP_MIN_LOG_LEVEL="3")
    env.pop("TFSCOPE_WATCH", None)
    b.mkdir(exist_ok=True)
    p = subprocess.run([exe, "watch", "--json", str(b / "report.json"),
                        os.path.join(wo.PROGRAMS, P), str(b / "ledger.json")],
                       capture_output=True, text=True, env=env, cwd=str(b), timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    rep = json.loads((b / "report.json").read_text())

    def shape(r):
        return [(f["name"], f["calls"], f["traces"], [t["reason"] for t in f["trace_list"]])
                for f in r["functions"]]

    assert shape(rep) == shape(rep_py)
    first = [line for line in p.stderr.splitlines() if line.startswith("tfscope watch:")]
    assert first == [line for line in p_py.stderr.splitlines()
                     if line.startswith("tfscope watch:")]
    # options reach the Python command: its own usage error, status 2
    p = subprocess.run([exe, "watch", "--max-traces", "0", "x.py"], capture_output=True,
                       text=True, env=env, timeout=120)
    assert p.returncode == 2 and "--max-traces must be at least 1, not 0" in p.stderr


def test_cpp_watch_command_without_a_python_says_so(tmp_path):
    exe = tmp_path / "tfscope"
    shutil.copy(_installed_binary(), exe)  # outside a site-packages: no wheel Python to use
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    p = subprocess.run([str(exe), "watch", "x.py"], capture_output=True, text=True, env=env)
    assert p.returncode == 1
    assert p.stderr == ("tfscope: error: [watch] no Python with the tfscope package found (tried "
                        "python3 and python on PATH); install the package into the Python that "
                        "runs your program, or set TFSCOPE_PYTHON\n")
    env["TFSCOPE_PYTHON"] = str(tmp_path / "nope")
    p = subprocess.run([str(exe), "watch", "x.py"], capture_output=True, text=True, env=env)
    assert p.returncode == 1
    assert p.stderr == ("tfscope: error: [watch] TFSCOPE_PYTHON=%s is not an executable Python\n"
                        % (tmp_path / "nope"))


RETRACING = '''
import tensorflow as tf

@tf.function
def f(x):
    return x

for i in range(8):
    f(i)
'''


def test_tf_warnings_print_once_when_tfscope_is_imported_first(tmp_path):
    """python -m tfscope watch imports tfscope (which gives the tensorflow logger TF's default
    handler) before the program imports TF: TF's retracing warning must still print once."""
    prog = tmp_path / "retrace.py"
    prog.write_text(RETRACING)
    plain = wo.run(tmp_path, [str(prog)])
    watched = wo.run(tmp_path, ["-m", "tfscope", "watch", "--quiet", str(prog)])

    def warnings(p):  # the function's address differs between the runs
        return [re.sub(r"0x[0-9a-f]+", "0x", line) for line in p.stderr.splitlines()
                if line.startswith("WARNING:tensorflow:")]

    assert len(warnings(plain)) == 2  # TF warns twice at most per function
    assert warnings(watched) == warnings(plain)
