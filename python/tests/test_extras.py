"""tfscope's extras beyond TF: the ledger, RetraceProbe, report, stabilize, fail-on-retrace."""
import json

import numpy as np
import pytest

import tfscope
import tfscope as tf


def _scaled():
    @tf.function
    def scaled(x, factor):
        return x * factor
    return scaled


def test_ledger_gives_a_reason_per_trace():
    scaled = _scaled()
    a = tf.constant([1, 2])
    c = tf.constant([1, 2, 3, 4])
    scaled(a, 2)
    scaled(a, 2)
    scaled(c, 2)
    scaled(c, 3)
    text = scaled.ledger()
    assert "call 1 traced: first call" in text
    assert "call 2 hit" in text
    assert "call 3 traced: x: shape (2,) -> (4,)" in text
    assert "call 4 traced: factor: Literal[2] -> Literal[3]" in text
    ledger = json.loads(scaled.ledger_json())
    assert (ledger["calls"], ledger["traces"]) == (4, 3)
    assert [e["traced"] for e in ledger["entries"]] == [True, False, True, True]


def test_retrace_probe_counts_only_traces_after_attaching():
    scaled = _scaled()
    scaled(tf.constant([1]), 2)
    probe = tfscope.RetraceProbe(scaled)
    scaled(tf.constant([1]), 2)      # hit
    scaled(tf.constant([1, 2]), 2)   # trace: new shape
    scaled(tf.constant([1, 2]), 5)   # trace: new literal
    assert probe.calls == 3
    assert probe.traces == 2


def test_stabilize_makes_shape_changes_share_one_trace():
    def centered(x):
        return x - tf.reduce_mean(x)

    loose = tf.function(centered)
    for n in (2, 3, 4):
        loose(tf.constant(np.arange(n, dtype=np.float32)))
    assert loose.experimental_get_tracing_count() == 3

    stable = tfscope.stabilize(loose, [tf.TensorSpec([None], tf.float32)])
    for n in (2, 3, 4):
        out = stable(tf.constant(np.arange(n, dtype=np.float32)))
        np.testing.assert_allclose(out.numpy(), np.arange(n) - (n - 1) / 2.0)
    assert stable.experimental_get_tracing_count() == 1


def test_fail_on_retrace_names_the_reason():
    scaled = _scaled()
    scaled(tf.constant([1, 2]), 2)
    scaled.fail_on_retrace()
    scaled(tf.constant([3, 4]), 2)  # a hit is fine
    with pytest.raises(Exception, match=r"x: shape \(2,\) -> \(3,\)"):
        scaled(tf.constant([1, 2, 3]), 2)
    assert scaled.experimental_get_tracing_count() == 1


def test_report_counts_ops_and_lists_the_signature():
    @tf.function
    def scaled(x, factor):
        tf.print("RUN", tf.shape(x), factor)
        return x * factor

    cf = scaled.get_concrete_function(tf.TensorSpec([2], tf.int32), 2)
    rep = json.loads(tfscope.report(cf, "json"))
    ops = rep["op_counts"]
    # TF 2.21's graph for this function (conformance case seed_trace_and_inspect)
    assert ops == {"Const": 2, "Identity": 1, "Mul": 1, "NoOp": 1, "Placeholder": 1,
                   "PrintV2": 1, "StringFormat": 1}
    assert "digraph" in tfscope.report(cf, "dot")
    assert "Mul" in tfscope.report(cf, "text")
    assert rep["inputs"] == [{"name": "x", "dtype": "int32", "shape": "(2,)"}]


def test_numpy_arrays_in_and_out():
    @tf.function
    def f(x):
        return tf.matmul(x, x, transpose_b=True)

    x = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    out = f(x)
    np.testing.assert_array_equal(np.asarray(out), x @ x.T)
    assert out.dtype == tf.float32
    assert tuple(out.shape) == (2, 2)


def test_python_demo_tells_the_seed_story(capfd):
    from tfscope import demo
    assert demo.main() == 0
    out, _ = capfd.readouterr()
    assert "TRACE (2,) 2\nRUN [2] 2\nRUN [2] 2\nTRACE (4,) 2" in out
    assert "tracing count: 3" in out
    assert "events: ['called', 'called'] (3 calls, 2 traces)" in out
    assert "without a signature: 4 traces; stabilized: 1 trace" in out
