"""What `pip install .` puts in an environment: the package and the tfscope command."""
import os
import subprocess
import sys
import sysconfig


def _run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=300)


def test_python_dash_m_tfscope_runs_the_command():
    p = _run([sys.executable, "-m", "tfscope", "--version"])
    assert (p.returncode, p.stdout.strip()) == (0, "tfscope 0.1.0"), p.stderr


def test_console_script_has_every_subcommand():
    exe = os.path.join(sysconfig.get_path("scripts"), "tfscope")
    p = _run([exe, "--help"])
    assert p.returncode == 0, p.stderr
    for sub in ("demo", "autograph", "inspect", "convert", "lint", "watch"):
        assert sub in p.stdout
    p = _run([exe, "frobnicate"])
    assert p.returncode == 2
    assert p.stderr.strip() == ("tfscope: error: [cli] unknown command 'frobnicate'; the commands "
                                "are demo, autograph, inspect, convert, lint, watch")


def test_installed_command_converts_a_saved_model(tmp_path):
    import tfscope as tf

    class M(tf.Module):
        def __init__(self):
            self.w = tf.Variable(tf.ones([4, 2]))

        @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
        def f(self, x):
            return tf.matmul(x, self.w)

    tf.saved_model.save(M(), str(tmp_path / "sm"))
    p = _run([sys.executable, "-m", "tfscope", "convert", str(tmp_path / "sm"), "-o",
              str(tmp_path / "m.tflite")])
    assert p.returncode == 0, p.stderr
    assert tf.lite.Interpreter(model_path=str(tmp_path / "m.tflite")).get_input_details()
