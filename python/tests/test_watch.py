"""tfscope watch on real TensorFlow 2.21: every call's hit/trace equals what TF did (TF's own
experimental_get_tracing_count, recorded by the program after each call), and each trace's reason
names what the program changed.

The programs are in watch_programs/; they run under the conformance oracle's interpreter."""
import json
import os

import pytest

import watch_oracle as wo

P = "basics.py"


@pytest.fixture(scope="module")
def basics(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("basics")
    rep, ledger, p = wo.watch(tmp, P, options=["--chrome-trace", str(tmp / "trace.json")])
    rep["_chrome_trace"] = str(tmp / "trace.json")
    return rep, ledger, p


def _site(line):
    return "%s:%d" % (os.path.join(wo.PROGRAMS, P), line)


def _calls(rep, names):
    """watch's traces per call, in program order, over the functions `names`."""
    rows = []
    for n in names:
        f = wo.function(rep, n)
        rows += [(e["t"], e["traces"]) for e in f["timeline"]]
    return [c for _, c in sorted(rows)]


def test_every_call_is_a_hit_or_trace_as_tf_counted(basics):
    rep, ledger, _ = basics
    names = ["scaled", "train_step", "<lambda>", "Scaler.apply"]
    assert _calls(rep, names) == wo.traced_per_call(ledger)
    for n in names:
        f = wo.function(rep, n)
        assert f["traces"] == f["tf_tracing_count"] == len(f["trace_list"])
        assert f["calls"] == len(f["timeline"])


def test_seed_scaled_reasons_and_sites(basics):
    rep, _, _ = basics
    f = wo.function(rep, "scaled")
    assert (f["calls"], f["hits"], f["traces"]) == (5, 1, 4)
    assert f["kept_concrete_functions"] == 4  # the Function is alive: TF keeps all four
    reasons = [t["reason"] for t in f["trace_list"]]
    assert reasons == [["first call"], ["x: shape (2,) -> (4,)"],
                       ["factor: Literal[2] -> Literal[3]"], ["x: dtype int32 -> float32"]]
    first = wo.line_of(P, "scaled(a, 2)")
    assert [t["site"] for t in f["trace_list"]] == [_site(first), _site(first + 2),
                                                    _site(first + 3), _site(first + 4)]
    assert [t["call"] for t in f["trace_list"]] == [1, 3, 4, 5]
    # the shape change: the generalized spec reduce_retracing would trace (a Python int rules
    # out input_signature); the Python-number change: pass a tensor
    assert f["trace_list"][1]["hint"] == [
        "reduce_retracing=True would trace x: TensorSpec(shape=(None,), dtype=tf.int32, "
        "name=None)"]
    assert "pass tf.constant(factor)" in f["trace_list"][2]["hint"][0]
    # TF's code object starts at the decorator line
    assert f["defined_at"] == _site(wo.line_of(P, "def scaled") - 1)


def test_python_int_step_bug(basics):
    rep, _, _ = basics
    f = wo.function(rep, "train_step")
    assert (f["calls"], f["traces"]) == (6, 4)
    ts = f["trace_list"]
    assert [t["reason"] for t in ts[1:3]] == [["step: Literal[0] -> Literal[1]"],
                                             ["step: Literal[1] -> Literal[2]"]]
    assert all("pass tf.constant(step)" in t["hint"][0] for t in ts[1:3])
    # the fix: one more trace for the tensor step, then hits for every value
    assert ts[3]["reason"] == [
        "step: Literal[2] -> TensorSpec(shape=(), dtype=tf.int32, name=None)"]
    assert ts[3]["site"] == _site(wo.line_of(P, "tf.constant(step)"))
    assert [e["traces"] for e in f["timeline"]] == [1, 1, 1, 1, 0, 0]


def test_tf_function_created_in_a_loop(basics):
    rep, _, _ = basics
    f = wo.function(rep, "<lambda>")
    made = _site(wo.line_of(P, "g = tf.function"))
    assert f["function_objects"] == [made] * 3
    assert f["traces"] == 3 and f["hits"] == 0
    assert f["trace_list"][0]["reason"] == ["first call"]
    for t in f["trace_list"][1:]:
        assert t["kinds"] == ["new-function"]
        assert t["reason"][0].startswith("a new Function object for <lambda> (created at %s;"
                                         % made)
        assert t["hint"] == ["create the tf.function once, outside the loop or function that "
                             "makes it (%s), and reuse it" % made]


def test_method_per_instance_is_a_new_object_identity(basics):
    rep, _, _ = basics
    f = wo.function(rep, "Scaler.apply")
    assert f["traces"] == 2
    assert f["trace_list"][1]["reason"][0].startswith(
        "a new object identity: Scaler.apply is a method and each instance gets its own "
        "tf.function")


def test_text_summary_at_exit(basics):
    _, _, p = basics
    err = p.stderr
    assert "tfscope watch: 4 tf.functions, 16 calls, 13 traces (TensorFlow 2.21.0)" in err
    assert "  calls 5 (1 hit, 4 traced), traces 4, trace " in err
    assert ": factor: Literal[2] -> Literal[3]\n" in err
    assert "      hint: pass tf.constant(step)" in err


K = "keras_data.py"


@pytest.fixture(scope="module")
def keras_data(tmp_path_factory):
    return wo.watch(tmp_path_factory.mktemp("keras"), K)


def _ksite(text, nth=1):
    return "%s:%d" % (os.path.join(wo.PROGRAMS, K), wo.line_of(K, text, nth))


def _by_object(f, obj):
    return [t for t in f["trace_list"] if t["function_object"] == obj]


def test_keras_traces_equal_tf_counts(keras_data):
    rep, oracle, _ = keras_data
    for f in rep["functions"]:
        # TF's own count (len of each Function's trace cache after its last call) against the
        # traces watch saw TF make; for Keras's step functions and the user's
        if f["calls"] and f["kind"] != "library":
            assert f["traces"] == f["tf_tracing_count"], f["name"]
    pred = wo.function(rep, "Keras one_step_on_data_distributed")
    # the first model's predict_function: TF traced it oracle["predict"] times
    assert len(_by_object(pred, 1)) == oracle["predict"] == 2
    assert [len(_by_object(pred, i)) for i in (2, 3, 4)] == oracle["loop"] == [1, 1, 1]


def test_keras_predict_in_a_loop(keras_data):
    rep, _, _ = keras_data
    pred = wo.function(rep, "Keras one_step_on_data_distributed")
    first, second = _by_object(pred, 1)
    assert first["site"] == second["site"] == _ksite("# predict loop")
    assert first["reason"] == ["first call"]
    # 5 rows in batches of 4: the last batch of 1 is a new shape; Keras's reduce_retracing
    # generalizes it
    assert second["reason"] == [
        "data[0]: shape (4, 4) -> (1, 4)",
        "reduce_retracing traced the generalized (data: List[TensorSpec(shape=(None, 4), "
        "dtype=tf.float32, name=None)])"]
    assert [e["traces"] for e in pred["timeline"][:6]] == [1, 0, 0, 0, 0, 1]


def test_keras_model_built_in_a_loop(keras_data):
    rep, _, _ = keras_data
    pred = wo.function(rep, "Keras one_step_on_data_distributed")
    for obj in (2, 3, 4):
        (t,) = _by_object(pred, obj)
        assert t["site"] == _ksite("# predict on a new model")
        assert t["kinds"] == ["new-function"]
        assert t["reason"][0].startswith("a new Keras one_step_on_data_distributed (made at %s;"
                                         % _ksite("# predict on a new model"))


def test_keras_fit_with_a_changing_batch_size(keras_data):
    rep, _, _ = keras_data
    f = wo.function(rep, "Keras multi_step_on_iterator")
    assert f["traces"] == 2 and f["calls"] == 5  # 3 batches of 4, then 2 batches of 6
    t = f["trace_list"][1]
    assert t["site"] == _ksite("# fit batch 6")
    assert t["reason"][:2] == ["iterator.element_spec[0]: shape (4, 4) -> (6, 4)",
                               "iterator.element_spec[1]: shape (4, 3) -> (6, 3)"]
    assert "TensorSpec(shape=(None, 4)" in t["generalized"]


def test_tf_data_map_function(keras_data):
    rep, _, _ = keras_data
    f = wo.function(rep, "double (tf.data Dataset_map_double)")
    assert f["kind"] == "tf.data" and f["calls"] == 0 and f["traces"] == 2
    a, b = f["trace_list"]
    assert a["site"] == _ksite("# first map")
    assert a["reason"] == ["first trace (get_concrete_function)"]
    assert b["site"] == _ksite("# second map")
    assert b["reason"][0].startswith("a new tf.data transformation of the same function")
    assert a["signature"] == "args_0: TensorSpec(shape=(), dtype=tf.int64, name=None)"


def test_saved_model_save_and_restored_function(keras_data):
    rep, oracle, _ = keras_data
    add = wo.function(rep, "Adder.add")
    # tf.saved_model.save traces the method again under its save context
    assert add["trace_list"][1]["reason"] == [
        "x: TensorSpec name None -> 'x'",
        "traced again by tf.saved_model.save (its save context is part of the trace key)"]
    r = wo.function(rep, "restored add")
    assert r["kind"] == "savedmodel"
    assert [e["traces"] for e in r["timeline"]] == wo.traced_per_call(oracle["ledger"]) == [1, 0]
    assert r["trace_list"][0]["site"] == _ksite("restored call 1")


B = "budget.py"


def _budget_run(tmp_path, options=(), env=None):
    p = wo.run(tmp_path, ["-m", "tfscope", "watch", "--json", str(tmp_path / "r.json")] +
               list(options) + [os.path.join(wo.PROGRAMS, B)], env=env, check=False)
    return p


def _retrace_error(source):
    return ("tfscope.watch.RetraceError: tfscope watch: f would trace a 2nd time at %s:%d, over "
            "the budget of 1 (%s): step: Literal[0] -> Literal[1]; hint: pass tf.constant(step)"
            % (os.path.join(wo.PROGRAMS, B), wo.line_of(B, "# the retrace"), source))


@pytest.mark.parametrize("options,env,source", [
    (["--max-traces", "1"], None, "--max-traces 1"),
    ([], {"TFSCOPE_MAX_TRACES": "1"}, "TFSCOPE_MAX_TRACES=1"),
    (["--fail-on-retrace"], None, "fail on retrace"),
])
def test_trace_past_the_budget_raises_naming_its_reason(tmp_path, options, env, source):
    p = _budget_run(tmp_path, options, env)
    assert p.returncode == 1
    assert p.stdout == "before the retrace\n"  # the call that would retrace did not run
    assert _retrace_error(source) in p.stderr
    # make_var's variable-creating first call traced twice (TF's count 2) within a budget of 1
    assert "make_var (defined at" in p.stderr
    assert "  calls 2 (1 hit, 1 traced), traces 2" in p.stderr
    assert "  refused trace (call 3 at " in p.stderr


def test_budget_of_two_lets_the_retrace_run(tmp_path):
    p = _budget_run(tmp_path, ["--max-traces", "2"])
    assert p.returncode == 0 and p.stdout.endswith("after the retrace\n")


def test_cli_errors(tmp_path):
    p = wo.run(tmp_path, ["-m", "tfscope", "watch", "--max-traces", "0", "x.py"], check=False)
    assert p.returncode == 2 and "--max-traces must be at least 1, not 0" in p.stderr
    p = wo.run(tmp_path, ["-m", "tfscope", "watch", "missing.py"], check=False)
    assert p.returncode == 2 and "can't open file 'missing.py'" in p.stderr
    p = _budget_run(tmp_path, env={"TFSCOPE_MAX_TRACES": "many"})
    assert p.returncode == 2
    assert "TFSCOPE_MAX_TRACES must be a whole number of traces, not 'many'" in p.stderr


def _site_dir(tmp_path):
    """A site folder with the installed package and its .pth, as site-packages has them."""
    import sysconfig
    pkgs = wo.tfscope_path(tmp_path)
    pth = os.path.join(sysconfig.get_paths()["purelib"], "tfscope_watch.pth")
    if not os.path.exists(pth):  # the platlib of this venv (scikit-build installs there)
        pth = os.path.join(sysconfig.get_paths()["platlib"], "tfscope_watch.pth")
    assert os.path.exists(pth), "the installed package has no tfscope_watch.pth"
    link = os.path.join(pkgs, "tfscope_watch.pth")
    if not os.path.exists(link):
        os.symlink(pth, link)
    return pkgs


_RUN_WITH_SITE = ("import site, sys, runpy; site.addsitedir(sys.argv[1]); "
                  "print('tfscope loaded' if 'tfscope' in sys.modules else 'tfscope not loaded', "
                  "flush=True); sys.argv = sys.argv[2:]; runpy.run_path(sys.argv[0], "
                  "run_name='__main__')")


def test_pth_hook_watches_when_TFSCOPE_WATCH_is_set(tmp_path):
    site = _site_dir(tmp_path)
    report = str(tmp_path / "env.json")
    p = wo.run(tmp_path, ["-c", _RUN_WITH_SITE, site, os.path.join(wo.PROGRAMS, B)],
               env={"TFSCOPE_WATCH": "1", "TFSCOPE_WATCH_JSON": report, "TFSCOPE_MAX_TRACES": "1"},
               check=False)
    assert p.stdout.startswith("tfscope loaded\nbefore the retrace\n")
    assert p.returncode == 1 and _retrace_error("TFSCOPE_MAX_TRACES=1") in p.stderr
    import json
    with open(report) as f:
        rep = json.load(f)
    assert wo.function(rep, "f")["refused"][0]["reason"] == ["step: Literal[0] -> Literal[1]"]


def test_pth_hook_costs_nothing_when_unset(tmp_path):
    site = _site_dir(tmp_path)
    p = wo.run(tmp_path, ["-c", _RUN_WITH_SITE, site, os.path.join(wo.PROGRAMS, B)])
    assert p.stdout == "tfscope not loaded\nbefore the retrace\nafter the retrace\n"
    assert "tfscope watch" not in p.stderr


PLUGIN_TESTS = '''
import pytest
import tensorflow as tf


@tf.function
def f(x, step):
    return x + step


@pytest.mark.max_traces(1)
def test_marked_retrace_fails():
    f(tf.constant(1.0), 0.0)
    f(tf.constant(1.0), 1.0)


def test_fixture_reports(tfscope_watch):
    g = tf.function(lambda x: x * 2)
    g(tf.constant(1.0))
    g(tf.constant([1.0]))
    r = tfscope_watch.function("<lambda>")
    assert [t.reason for t in r.traces] == [["first call"], ["x: shape () -> (1,)"]]


def test_unbudgeted():
    f(tf.constant(1.0), 5.0)
    f(tf.constant(1.0), 6.0)
'''


def _pytest_path(tmp_path):
    """tfscope plus this venv's pure-Python pytest, for the oracle interpreter."""
    import importlib
    pkgs = wo.tfscope_path(tmp_path)
    for name in ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "py"):
        m = importlib.import_module(name)
        src = os.path.dirname(m.__file__) if m.__file__.endswith("__init__.py") else m.__file__
        link = os.path.join(pkgs, os.path.basename(src))
        if not os.path.exists(link):
            os.symlink(src, link)
    return pkgs


def _run_plugin(tmp_path, *options):
    pkgs = _pytest_path(tmp_path)
    (tmp_path / "test_plugin_case.py").write_text(PLUGIN_TESTS)
    return wo.run(tmp_path, ["-m", "pytest", "-p", "tfscope.watch.pytest_plugin", "-q",
                             "-p", "no:cacheprovider", "test_plugin_case.py"] + list(options),
                  env={"PYTHONPATH": pkgs}, check=False)


def test_pytest_plugin_marker_and_fixture(tmp_path):
    p = _run_plugin(tmp_path)
    assert "1 failed, 2 passed" in p.stdout, p.stdout + p.stderr
    assert ("RetraceError: tfscope watch: f would trace a 2nd time at test_plugin_case.py:14, "
            "over the budget of 1 (@pytest.mark.max_traces(1)): step: Literal[0.0] -> "
            "Literal[1.0]") in p.stdout


def test_pytest_plugin_option_guards_every_test(tmp_path):
    p = _run_plugin(tmp_path, "--tfscope-max-traces=1")
    assert "3 failed" in p.stdout, p.stdout + p.stderr
    assert "over the budget of 1 (--tfscope-max-traces=1): step: Literal[5.0] -> Literal[6.0]" \
        in p.stdout
    assert "over the budget of 1 (--tfscope-max-traces=1): x: shape () -> (1,)" in p.stdout


def test_watch_in_code_after_tensorflow_is_imported(tmp_path):
    import json
    out = str(tmp_path / "out.json")
    wo.run(tmp_path, [os.path.join(wo.PROGRAMS, "in_code.py"), out])
    with open(out) as f:
        r = json.load(f)
    # the watch saw only its own calls: a hit, then the trace for the new shape
    assert r["with_calls"] == 2
    assert r["with"] == [[["x: shape () -> (2,)"], 2]]  # against the trace made before it
    assert r["twice"] == "tfscope watch: already started (call tfscope.watch.stop() first)"
    assert r["start"] == [[["x: shape (1,) -> (1, 1)"], 1]]
    assert "f (defined at " in r["summary"]


E = "edges.py"


@pytest.fixture(scope="module")
def edges(tmp_path_factory):
    return wo.watch(tmp_path_factory.mktemp("edges"), E)


def _esite(text):
    return "%s:%d" % (os.path.join(wo.PROGRAMS, E), wo.line_of(E, text))


def test_edges_trace_counts_equal_tf(edges):
    rep, counts, _ = edges
    for name, n in counts.items():
        f = wo.function(rep, name)
        assert f["traces"] == n == f["tf_tracing_count"], name
        # traces are attributed to the call that made them, also across threads
        assert sum(e["traces"] for e in f["timeline"]) == n - sum(
            1 for t in f["trace_list"] if not t["call"]), name


def test_nested_function_traced_inside_the_outer_trace(edges):
    rep, _, _ = edges
    inner = wo.function(rep, "inner")
    first, second = inner["trace_list"][:2]
    # both inner calls of outer's first trace are at the outer call's line, the second a hit
    assert first["site"] == _esite("# outer call 1") and first["reason"] == ["first call"]
    assert [e["traces"] for e in inner["timeline"][:4]] == [1, 0, 1, 0]
    assert second["site"] == _esite("# outer call 2")
    assert second["reason"] == ["x: shape () -> (1,)"]
    threaded = [t for t in inner["trace_list"] if t["site"] == _esite("# from a thread")]
    assert [t["reason"] for t in threaded] == [["x: shape (1,) -> (2,)"],
                                               ["x: shape (2,) -> (3,)"],
                                               ["x: shape (3,) -> (4,)"]]


def test_call_that_does_not_bind_is_counted_as_raised(edges):
    rep, _, _ = edges
    f = wo.function(rep, "sig")
    assert (f["calls"], f["hits"], f["traced_calls"], f["failed_calls"]) == (2, 0, 1, 1)
    assert f["timeline"][1]["raised"] is True


def test_kwargs_object_and_nested_reasons(edges):
    rep, _, _ = edges
    assert wo.function(rep, "kw")["trace_list"][1]["reason"] == [
        "b: a parameter the earlier trace did not have"]
    t = wo.function(rep, "takes")["trace_list"][1]
    assert t["reason"][0].startswith("o: a new object identity (Thing object at 0x")
    assert t["hint"] == ["o is compared by identity: pass the same object, its tensors, or give "
                         "its class a __tf_tracing_type__"]
    n = wo.function(rep, "nest")["trace_list"][1]
    assert n["reason"] == ["d['b'][0]: shape () -> (1,)"]
    assert n["site"] == _esite("# a nested shape")


def test_chrome_trace_spans(basics):
    import json
    rep, _, _ = basics
    with open(rep["_chrome_trace"]) as f:
        events = json.load(f)["traceEvents"]
    calls = [e for e in events if e.get("cat") == "call"]
    traces = [e for e in events if e.get("cat") == "trace"]
    assert len(calls) == sum(f["calls"] for f in rep["functions"])
    assert len(traces) == sum(f["traces"] for f in rep["functions"])
    # every trace made in a call lies inside that call's span, on its thread
    for f in rep["functions"]:
        spans = [e for e in calls if e["name"] == f["name"]]
        for t in f["trace_list"]:
            if not t["call"]:
                continue
            call = spans[t["call"] - 1]
            (ev,) = [e for e in traces if e["name"] == "trace %s #%d" % (f["name"], t["index"])]
            assert ev["tid"] == call["tid"]
            assert call["ts"] <= ev["ts"] and ev["ts"] + ev["dur"] <= call["ts"] + call["dur"]
            assert ev["args"]["reason"] == "; ".join(t["reason"])


def test_watch_leaves_tf_error_texts_and_tracebacks_unchanged(tmp_path):
    prog = os.path.join(wo.PROGRAMS, "error_text.py")
    plain = wo.run(tmp_path, [prog]).stdout
    watched = wo.run(tmp_path, ["-m", "tfscope", "watch", "--quiet", prog]).stdout
    assert "Detected at node Reshape defined at" in plain and "ValueError: no" in plain
    # the launcher's outer frames (runpy, tfscope/__main__.py, watch/_cli.py) come before the
    # program's; every frame from the program on, the wrappers' included, must be as without watch
    launcher = ("<frozen runpy>", os.sep + "__main__.py", os.sep + "_cli.py")
    lines, kept, skip = watched.splitlines(), [], False
    for line in lines:
        if skip:
            skip = False
            continue
        if line.lstrip().startswith("File ") and any(m in line for m in launcher):
            skip = True
            continue
        kept.append(line)
    assert kept == plain.splitlines()


def test_retraces_cite_the_lint_rule_that_predicts_them(basics):
    """Joined with tfscope lint (issue 18): a retrace a rule predicts names the rule and its line;
    first traces and retraces no rule predicts cite nothing."""
    rep, _, _ = basics
    path = os.path.join(wo.PROGRAMS, P)
    step = wo.function(rep, "train_step")["trace_list"]
    call = wo.line_of(P, "train_step(tf.ones([2]), step)")
    assert [[(f["code"], f["path"], f["line"]) for f in t["lint"]] for t in step] == [
        [], [("TFS103", path, call)], [("TFS103", path, call)], []]
    assert "Python int `step` changes every iteration" in step[1]["lint"][0]["message"]
    lam = wo.function(rep, "<lambda>")["trace_list"]
    made = wo.line_of(P, "g = tf.function")
    assert [[(f["code"], f["line"]) for f in t["lint"]] for t in lam] == [
        [], [("TFS105", made)], [("TFS105", made)]]
    assert all(t["lint"] == [] for t in wo.function(rep, "scaled")["trace_list"])


def test_every_call_keeps_its_own_site(tmp_path):
    out = str(tmp_path / "out.json")
    wo.run(tmp_path, [os.path.join(wo.PROGRAMS, "hit_sites.py"), out])
    with open(out) as f:
        sites = json.load(f)["sites"]
    lines = [wo.line_of("hit_sites.py", "# site %s" % c) for c in "ABC"]
    assert [int(s.rsplit(":", 1)[1]) for s in sites] == lines * 3
    assert all(s.rsplit(":", 1)[0].endswith("hit_sites.py") for s in sites)
