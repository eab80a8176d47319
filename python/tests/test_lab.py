"""tfscope.lab in the shape of the lab's test_lab.py: the six tools on both backends, tfscope and
real TensorFlow 2.21 (the oracle's Python), each checked against the lab's success criteria:
the seed's ledger predicted before running (scaled(a,2) scaled(b,2) scaled(c,2) scaled(c,3): a
trace, a hit, a trace for the new shape, a trace for the new Python value), Python print at trace
time against tf.print at every call, stabilize's one trace for every length, AutoGraph's if and
for, an exact SavedModel round trip, and a TFLite dynamic-range delta under 1e-2 on the small
MLP. The exercises are python/tests/lab_program.py, run once per backend."""
import json
import os
import subprocess
import sys

import pytest

import watch_oracle as wo

HERE = os.path.dirname(os.path.abspath(__file__))
BACKENDS = ["tfscope", "tf"]

# predicted from the rules before running: the new shape (2,) -> (4,) and the new Python value
# 2 -> 3 trace, the same shape and value with new tensor values hits
PREDICTED = [1, 0, 1, 1]


@pytest.fixture(scope="module", params=BACKENDS)
def lab(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lab_" + request.param)
    out = tmp / "lab.json"
    env = dict(os.environ, PYTHONPATH=wo.tfscope_path(tmp), TF_CPP_MIN_LOG_LEVEL="3")
    python = wo.oracle_python() if request.param == "tf" else sys.executable
    p = subprocess.run([python, os.path.join(HERE, "lab_program.py"), request.param, str(out)],
                       capture_output=True, text=True, env=env, cwd=str(tmp), timeout=600)
    assert p.returncode == 0, p.stderr[-4000:]
    return request.param, json.loads(out.read_text()), p


def test_retrace_probe_matches_the_predicted_ledger(lab):
    backend, r, _ = lab
    assert r["probe"]["per_call"] == PREDICTED
    assert (r["probe"]["calls"], r["probe"]["traces"]) == (4, sum(PREDICTED))
    report = r["probe"]["report"]
    # why: the shape change and the Python value change, named in TF's vocabulary
    assert "x: shape (2,) -> (4,)" in report and "factor: Literal[2] -> Literal[3]" in report
    if backend == "tf":  # under watch, tfscope's own rules predicted each of TF's calls
        assert r["probe"]["self_check"] == [4, 4]


def test_print_runs_at_trace_time_and_tf_print_at_every_call(lab):
    _, _, p = lab
    traces = [line for line in p.stdout.splitlines() if line.startswith("TRACE")]
    runs = [line for line in p.stderr.splitlines() if line.startswith("RUN")]
    assert traces == ["TRACE (2,) 2", "TRACE (4,) 2", "TRACE (4,) 3"]
    assert runs == ["RUN [2] 2", "RUN [2] 2", "RUN [4] 2", "RUN [4] 3"]


def test_trace_and_inspect_reports_ops_captures_and_signature(lab):
    backend, r, _ = lab
    g = r["inspect"]
    assert g["ops_by_type"] == {"AddV2": 1, "Const": 1, "Identity": 1, "MatMul": 1, "NoOp": 1,
                                "Placeholder": 2, "ReadVariableOp": 1}
    assert [c[1:] for c in g["captures"]] == [["resource", "()"]]
    assert g["signature"] == ("(x: TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)) -> "
                              "TensorSpec(shape=(None, 1), dtype=tf.float32, name=None)")
    assert g["backend"].startswith("tensorflow 2.21" if backend == "tf" else "tfscope")


def test_stabilize_makes_one_trace_for_every_length(lab):
    _, r, _ = lab
    assert r["stabilize"] == {"traces": 1, "calls": 3}
    assert r["unstabilized"] == {"traces": 3}


def test_autograph_diff_shows_if_and_for(lab):
    backend, r, _ = lab
    a = r["autograph"]
    assert a["diff_has_if"] and a["diff_has_for"] and a["diff_lines"] > 20
    if backend == "tf":  # tfscope's converter writes what TF's does
        assert a["same_as_tfscope"] is True


def test_savedmodel_roundtrip_is_exact(lab):
    backend, r, _ = lab
    rt = r["roundtrip"]
    assert rt["exact"] is True and rt["max_abs_delta"] == 0.0
    assert rt["signatures"] == ["serving_default"]
    assert "saved_model.pb" in rt["files"] and "variables/variables.index" in rt["files"]
    if backend == "tf":  # tfscope read TF's SavedModel and ran it to the same bits
        assert rt["tfscope"]["max_abs_delta_from_tf"] == 0.0


def test_tflite_dynamic_range_delta_under_1e_2_on_the_small_mlp(lab):
    backend, r, _ = lab
    t = r["tflite"]
    assert 0.0 < t["max_abs_delta"] < 1e-2
    if backend == "tf":  # tfscope's converter on TF's SavedModel, run by LiteRT: also < 1e-2
        ours = t["tfscope"]
        assert "error" not in ours, ours
        assert 0.0 < ours["max_abs_delta"] < 1e-2
        assert ours["quantized_ops"] == ["FULLY_CONNECTED", "FULLY_CONNECTED"]
