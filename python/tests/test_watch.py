"""tfscope watch on real TensorFlow 2.21: every call's hit/trace equals what TF did (TF's own
experimental_get_tracing_count, recorded by the program after each call), and each trace's reason
names what the program changed.

The programs are in watch_programs/; they run under the conformance oracle's interpreter."""
import os

import pytest

import watch_oracle as wo

P = "basics.py"


@pytest.fixture(scope="module")
def basics(tmp_path_factory):
    return wo.watch(tmp_path_factory.mktemp("basics"), P)


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
