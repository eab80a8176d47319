"""The seeds' examples, run with `import tfscope as tf`, against what TF 2.21 does.

Expected trace counts, printed lines and outputs are TF 2.21's, recorded by the conformance suite
(conformance/expected_tf.json, cases seed_*); the suite re-checks them against live TF.
"""
import numpy as np
import pytest

import tfscope as tf


def test_scaled_traces_three_times_and_tf_print_runs_every_call(capfd):
    @tf.function
    def scaled(x, factor):
        print("TRACE", x.shape, factor)
        tf.print("RUN", tf.shape(x), factor)
        return x * factor

    a = tf.constant([1, 2], dtype=tf.int32)
    b = tf.constant([8, 9], dtype=tf.int32)
    c = tf.constant([1, 2, 3, 4], dtype=tf.int32)
    counts = []
    outs = []
    for x, f in [(a, 2), (b, 2), (c, 2), (c, 3)]:
        outs.append(scaled(x, f).numpy().tolist())
        counts.append(scaled.experimental_get_tracing_count())
    out, err = capfd.readouterr()
    assert counts == [1, 1, 2, 3]
    assert out.splitlines() == ["TRACE (2,) 2", "TRACE (4,) 2", "TRACE (4,) 3"]
    assert err.splitlines() == ["RUN [2] 2", "RUN [2] 2", "RUN [4] 2", "RUN [4] 3"]
    assert outs == [[2, 4], [16, 18], [2, 4, 6, 8], [3, 6, 9, 12]]


def test_centered_with_input_signature_traces_once():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def centered(x):
        return x - tf.reduce_mean(x)

    r1 = centered(tf.constant([1.0, 3.0], dtype=tf.float32))
    r2 = centered(tf.constant([1.0, 3.0, 5.0], dtype=tf.float32))
    assert centered.experimental_get_tracing_count() == 1
    np.testing.assert_array_equal(r1.numpy(), np.array([-1.0, 1.0], np.float32))
    np.testing.assert_array_equal(r2.numpy(), np.array([-2.0, 0.0, 2.0], np.float32))
    # a rank-2 input does not fit [None]: TF raises TypeError naming the binding failure
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        centered(tf.constant([[1.0]]))


def test_record_appends_once_per_trace(capfd):
    events = []

    @tf.function
    def record(x):
        events.append("called")
        print("tracing")
        tf.print("executing", x)
        return x + 1

    for v in ([1, 2], [3, 4], [5, 6, 7]):
        record(tf.constant(v))
    out, err = capfd.readouterr()
    assert events == ["called", "called"]
    assert out.splitlines() == ["tracing", "tracing"]
    assert err.splitlines() == ["executing [1 2]", "executing [3 4]", "executing [5 6 7]"]
    assert record.experimental_get_tracing_count() == 2


def test_python_global_is_frozen_into_the_graph():
    scale = 2

    @tf.function
    def f(x):
        return x * scale

    assert f(tf.constant(3)).numpy() == 6
    scale = 10  # noqa: F841  (the closure sees it, the graph does not)
    assert f(tf.constant(3)).numpy() == 6
    assert f.experimental_get_tracing_count() == 1


def test_variable_counter_updates_every_call():
    counter = tf.Variable(0)

    @tf.function
    def step():
        counter.assign_add(1)
        return counter.read_value()

    assert [int(step().numpy()) for _ in range(3)] == [1, 2, 3]
    assert step.experimental_get_tracing_count() == 1
