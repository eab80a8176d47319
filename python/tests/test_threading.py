"""tf.config.threading against TF 2.21 itself: the same script runs in a fresh process under the
oracle's TensorFlow and under tfscope (the settings are fixed once a process's context starts,
so each scenario needs its own process), and both must print the same lines."""
import os
import subprocess
import sys

import pytest

import watch_oracle as wo

SCRIPT = r'''
import sys
tf = __import__(sys.argv[1])
T = tf.config.threading

def attempt(tag, fn, *a):
    try:
        r = fn(*a)
        print(tag, "ok", repr(r))
    except Exception as e:
        print(tag, type(e).__name__, e)

attempt("default", lambda: (T.get_intra_op_parallelism_threads(), T.get_inter_op_parallelism_threads()))
T.set_intra_op_parallelism_threads(1)
T.set_inter_op_parallelism_threads(3)
attempt("set", lambda: (T.get_intra_op_parallelism_threads(), T.get_inter_op_parallelism_threads()))
T.set_intra_op_parallelism_threads(None)
attempt("none", T.get_intra_op_parallelism_threads)
for bad in [2.5, True, "2"]:
    T.set_intra_op_parallelism_threads(bad)
    attempt("bad " + repr(bad), T.get_intra_op_parallelism_threads)
T.set_intra_op_parallelism_threads(2)
step = sys.argv[2]
if step == "constant":
    tf.constant(1.0)
elif step == "variable":
    tf.Variable(1.0)
elif step == "op":
    tf.add(tf.constant(1.0), 2.0)
elif step == "function":
    tf.function(lambda x: x * 2)(tf.constant(1.0))
elif step == "shape":
    tf.TensorShape([1, 2])
elif step == "defined":  # a tf.function never called: no trace
    tf.function(lambda: None)
elif step == "trace":  # a trace that makes no tensor (TF: every trace initializes the context)
    tf.function(lambda: None)()
elif step == "concrete":  # a trace from a spec: placeholders only
    tf.function(lambda x: x).get_concrete_function(tf.TensorSpec([], tf.float32))
attempt("same value", T.set_intra_op_parallelism_threads, 2)
attempt("intra", T.set_intra_op_parallelism_threads, 1)
attempt("inter", T.set_inter_op_parallelism_threads, 1)
attempt("after", lambda: (T.get_intra_op_parallelism_threads(), T.get_inter_op_parallelism_threads()))
'''

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(python, module, step, tmp_path, env_extra):
    path = tmp_path / "threading_script.py"
    path.write_text(SCRIPT)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", **env_extra)
    out = subprocess.run([python, str(path), module, step], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


@pytest.mark.parametrize("step", [
    "nothing", "shape", "constant", "variable", "op", "function", "defined", "trace", "concrete"])
def test_threading_settings_follow_tf(step, tmp_path):
    mine = _run(sys.executable, "tfscope", step, tmp_path, {})
    theirs = _run(wo.oracle_python(), "tensorflow", step, tmp_path,
                  {"PYTHONPATH": wo.tfscope_path(tmp_path)})
    assert mine == theirs


def test_intra_op_pool_size_follows_the_setting_and_env(tmp_path):
    code = ("import tfscope as tf, tfscope._core as c\n"
            "print(c.intra_op_threads(), c.inter_op_threads())\n"
            "tf.config.threading.set_intra_op_parallelism_threads(3)\n"
            "tf.config.threading.set_inter_op_parallelism_threads(5)\n"
            "print(c.intra_op_threads(), c.inter_op_threads())\n")
    env = dict(os.environ, TF_NUM_INTRAOP_THREADS="7", TF_NUM_INTEROP_THREADS="6")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.split() == ["7", "6", "3", "5"], out.stderr
