"""tfscope.profile and `tfscope profile`: one call's executor time per op (issue 19, Profiles).

The executed ops are checked against TF 2.21's own profiler for the same function (run live in
the oracle environment: tf.profiler.experimental with its XSpace read back), and against counts
worked out from the program (a while loop's body runs once per iteration)."""
import collections
import json
import os
import subprocess
import sys

import pytest

import tfscope as tf
from tfscope import _core

import watch_oracle

# The function both sides profile (TF's side runs the same source, see _TF_SIDE).
SOURCE = '''
def f(x, y):
    z = tf.matmul(x, y) + 1.0
    return tf.nn.relu(z) * 2.0, tf.reduce_sum(z)
'''


def _f():
    ns = {"tf": tf}
    exec(SOURCE, ns)
    return tf.function(ns["f"])


def _args():
    return tf.ones([4, 4]), tf.ones([4, 4])


_TF_SIDE = r'''
import glob, json, sys, tensorflow as tf
try:
    from tsl.profiler.protobuf import xplane_pb2
except ImportError:
    from tensorflow.tsl.profiler.protobuf import xplane_pb2
ns = {"tf": tf}
exec(sys.argv[2], ns)
f = tf.function(ns["f"])
x = tf.ones([4, 4]); y = tf.ones([4, 4])
f(x, y)
tf.profiler.experimental.start(sys.argv[1], options=tf.profiler.experimental.ProfilerOptions(
    host_tracer_level=3, python_tracer_level=0))
f(x, y)
tf.profiler.experimental.stop()
xs = xplane_pb2.XSpace()
xs.ParseFromString(open(glob.glob(sys.argv[1] + "/plugins/profile/*/*.xplane.pb")[0], "rb").read())
ops = []
for plane in xs.planes:
    names = {k: v.name for k, v in plane.event_metadata.items()}
    for line in plane.lines:
        if line.name.startswith("tf_Compute") or line.name == "python":
            ops += [names[e.metadata_id] for e in line.events]
graph = [(op.name, op.type) for op in f.get_concrete_function(x, y).graph.get_operations()]
print(json.dumps({"ops": ops, "graph": graph}))
'''


def test_the_executed_ops_are_those_tf_s_profiler_reports(tmp_path):
    """TF's op events ("name:type") are exactly tfscope's events: the kernels run, no Const (its
    value is placed without a kernel in tfscope; TF's profiler does not record its inexpensive
    kernel), no feed or output node (grappler leaves the outputs' Identity nodes out of the
    plan). With oneDNN off, so that TF runs its own MatMul kernel (oneDNN's is _MklMatMul)."""
    out = watch_oracle.run(tmp_path, ["-c", _TF_SIDE, str(tmp_path / "log"), SOURCE],
                           env={"TF_ENABLE_ONEDNN_OPTS": "0"})
    tf_side = json.loads(out.stdout.strip().splitlines()[-1])
    graph_nodes = {n for n, _ in tf_side["graph"]}
    tf_ops = sorted(tuple(e.split(":", 1)) for e in tf_side["ops"]
                    if ":" in e and e.split(":", 1)[0] in graph_nodes)
    assert tf_ops, tf_side["ops"]
    f = _f()
    f(*_args())
    p = tf.profile(f, *_args())
    assert sorted((e.node, e.op) for e in p.events) == tf_ops


def test_a_while_loop_counts_each_iteration():
    """3 iterations: the body's Mul runs 3 times, its two AddV2 (i + 1 and the loop counter
    while_v2 adds to every body) 3 times each, the condition's Less 4 times, each as an event of
    the body's or the condition's function, one level below the While."""
    @tf.function
    def g(x):
        return tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2.0), [0, x])[1]

    g(tf.constant(1.0))
    p = tf.profile(g, tf.constant(1.0))
    assert float(p.result.numpy()) == 8.0
    counts = collections.Counter(e.op for e in p.events)
    assert counts["Less"] == 4
    assert counts["Mul"] == 3
    assert counts["AddV2"] == 6
    assert counts["While"] + counts["StatelessWhile"] == 1
    loop = [e for e in p.events if e.op in ("While", "StatelessWhile")][0]
    inner = [e for e in p.events if e.op in ("Less", "Mul", "AddV2")]
    assert {e.depth for e in inner} == {loop.depth + 1}
    assert all(e.function and e.function != loop.function for e in inner)
    # the table's rows are the events' op types with their counts
    rows = {op: n for op, n, _, _ in p.op_types()}
    assert rows == dict(collections.Counter(e.op for e in p.events))
    assert loop.self_us <= loop.dur_us
    table = p.table()
    for op, n in rows.items():
        assert any(line.split()[:2] == [op, str(n)] for line in table.splitlines()), op


def test_trace_time_against_run_time_of_the_call():
    f = _f()
    first = tf.profile(f, *_args())
    second = tf.profile(f, *_args())
    assert first.traced and first.trace_us > 0 and first.run_us > 0
    assert not second.traced and second.trace_us == 0 and second.run_us > 0
    assert "traced" in first.table().splitlines()[0]
    assert "a cache hit" in second.table().splitlines()[0]


def test_chrome_trace_has_one_event_per_executed_op(tmp_path):
    f = _f()
    f(*_args())
    p = tf.profile(f, *_args())
    path = tmp_path / "ops.json"
    p.write_chrome_trace(str(path))
    doc = json.loads(path.read_text())
    ops = [e for e in doc["traceEvents"] if e.get("cat") == "op"]
    assert len(ops) == len(p.events)
    assert sorted(e["name"] for e in ops) == sorted(e.node for e in p.events)
    assert all(e["ph"] == "X" and e["dur"] >= 0 for e in ops)
    assert [e["name"] for e in doc["traceEvents"] if e.get("cat") == "call"] == ["run f"]


def test_timing_is_off_outside_a_profile():
    f = _f()
    prof = _core.OpProfile()
    prof.start()
    try:
        other = _core.OpProfile()
        with pytest.raises(tf.errors.FailedPreconditionError, match="already recording"):
            other.start()
        f(*_args())
    finally:
        prof.stop()
    n = len(prof.events())
    assert n > 0 and not prof.recording
    f(*_args())
    assert len(prof.events()) == n


def test_profile_of_something_else_is_a_type_error():
    with pytest.raises(TypeError, match="expected a tfscope.function"):
        tf.profile(lambda x: x, 1.0)


def _cli(*argv):
    return subprocess.run([sys.executable, "-m", "tfscope", "profile", *argv],
                          capture_output=True, text=True)


def test_cli_prints_the_table_and_writes_the_trace(tmp_path):
    src = tmp_path / "model.py"
    src.write_text("import tfscope as tf\n" + SOURCE)
    trace = tmp_path / "t.json"
    r = _cli("%s:f" % src, "--args", "f32[4,4],f32[4,4]", "--warmup", "1",
             "--chrome-trace", str(trace))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("profile of f: a cache hit")
    for op in ("MatMul", "AddV2", "Relu", "Mul", "Sum"):
        assert any(line.split()[:2] == [op, "1"] for line in r.stdout.splitlines()), op
    doc = json.loads(trace.read_text())
    assert sum(e.get("cat") == "op" for e in doc["traceEvents"]) == 5


def test_cli_errors_are_one_line(tmp_path):
    r = _cli("nofile.py:f", "--args", "f32[2]")
    assert r.returncode == 1
    assert r.stderr == "tfscope: error: ValueError: [profile] no such file: nofile.py\n"
    src = tmp_path / "m.py"
    src.write_text("import tfscope as tf\n" + SOURCE)
    r = _cli("%s:f" % src, "--args", "q8[2]")
    assert r.stderr == "tfscope: error: ValueError: [profile] unknown dtype 'q8' in 'q8[2]'\n"
