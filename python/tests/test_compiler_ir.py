"""experimental_get_compiler_ir: tfscope's HLO text against TF 2.21's recorded text
(tests/hlo/tf_2_21, written by tests/hlo/record_tf.py), TF's errors, and the normalization.
conformance/cases/hlo_*.py compares the same families against the live oracle."""
import importlib.util
import os
import re

import pytest

import tfscope as tf
from tfscope import _compiler_ir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORDED = os.path.join(ROOT, "tests", "hlo", "tf_2_21")


def _conformance_normalize():
    spec = importlib.util.spec_from_file_location(
        "_hlo", os.path.join(ROOT, "conformance", "cases", "_hlo.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.normalize


def recorded(name):
    with open(os.path.join(RECORDED, name + ".hlo")) as f:
        return f.read()


def dense(x, w):
    return tf.nn.relu(tf.matmul(x, w) + 1.0)


def means(x):
    return tf.reduce_mean(x, axis=0, keepdims=True), tf.reduce_max(x)


def shapes(x):
    return tf.transpose(tf.reshape(x, [3, 2])) - tf.constant([1.0, 2.0, 3.0])


def softmax(x):
    return tf.nn.softmax(x)


def cond(x):
    return tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, lambda: x - 1.0)


def while_loop(x):
    return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2.0), [tf.constant(0), x])


CASES = {
    "cond": (cond, [2, 3]),
    "while_loop": (while_loop, [2, 3]),
    "dense": (dense, [2, 3], [3, 4]),
    "means": (means, [2, 3]),
    "shapes": (shapes, [2, 3]),
    "softmax": (softmax, [2, 3]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_hlo_text_is_tfs_after_normalization(name):
    fn, *shapes_ = CASES[name]
    f = tf.function(fn, jit_compile=True)
    text = f.experimental_get_compiler_ir(*[tf.ones(s) for s in shapes_])(stage="hlo")
    assert _compiler_ir.normalize(text) == _compiler_ir.normalize(recorded(name))


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_two_normalizations_agree_on_tfs_text(name):
    # tfscope's C++ hlo::normalize and the conformance cases' Python one are written separately.
    assert _compiler_ir.normalize(recorded(name)) == _conformance_normalize()(recorded(name))


def test_normalization_keeps_no_source_location_or_uid():
    text = _compiler_ir.normalize(recorded("dense"))
    assert "source_file" not in text and "source_line" not in text
    assert text.startswith("HloModule a_inference_dense_N__, entry_computation_layout=")


def test_without_jit_compile_is_tfs_value_error():
    for f in (tf.function(dense), tf.function(dense, jit_compile=False)):
        with pytest.raises(ValueError, match=re.escape(
                "Compiler IR can only be returned for functions marked with 'jit_compile=True'")):
            f.experimental_get_compiler_ir(tf.ones([2, 3]), tf.ones([3, 4]))


def test_the_getter_traces_once_and_calls_reuse_the_trace():
    f = tf.function(dense, jit_compile=True)
    x, w = tf.ones([2, 3]), tf.ones([3, 4])
    getter = f.experimental_get_compiler_ir(x, w)
    assert f.experimental_get_tracing_count() == 1
    f(x, w)
    assert f.experimental_get_tracing_count() == 1
    assert getter("hlo") == getter() == getter(stage="hlo")


def test_unknown_stage_is_tfs_value_error():
    getter = tf.function(dense, jit_compile=True).experimental_get_compiler_ir(
        tf.ones([2, 3]), tf.ones([3, 4]))
    with pytest.raises(ValueError, match=re.escape(
            "Invalid stage selected: 'hlo_text'. Valid values are: 'hlo', 'hlo_serialized', "
            "'optimized_hlo', 'optimized_hlo_serialized', 'optimized_hlo_dot'")):
        getter(stage="hlo_text")


def test_stages_tfscope_does_not_produce_are_tfs_invalid_stage():
    """TF's error class and text form for a stage it rejects (TF_FACTS section 11), listing the
    stages tfscope produces: XLA's serialized and optimized modules are not among them."""
    getter = tf.function(dense, jit_compile=True).experimental_get_compiler_ir(
        tf.ones([2, 3]), tf.ones([3, 4]))
    for stage in ("optimized_hlo", "optimized_hlo_dot", "optimized_hlo_serialized", "hlo_serialized"):
        with pytest.raises(ValueError) as e:
            getter(stage=stage)
        assert str(e.value) == ("Invalid stage selected: '%s'. Valid values are: 'hlo', "
                                "'hlo_no_metadata'" % stage)


def test_hlo_no_metadata_is_hlo_without_metadata():
    getter = tf.function(dense, jit_compile=True).experimental_get_compiler_ir(
        tf.ones([2, 3]), tf.ones([3, 4]))
    assert getter(stage="hlo_no_metadata") == re.sub(r", metadata=\{[^}]*\}", "", getter())


def _ir_cli(tmp_path, *argv):
    import subprocess
    import sys
    src = tmp_path / "model.py"
    src.write_text("import tfscope as tf\n\n"
                   "def dense(x, w):\n    return tf.nn.relu(tf.matmul(x, w) + 1.0)\n\n"
                   "def cond(x):\n    return tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, "
                   "lambda: x - 1.0)\n\n"
                   "@tf.function\ndef plain(x):\n    return x * 2.0\n")
    argv = [a.replace("MODEL", str(src)) for a in argv]
    return subprocess.run([sys.executable, "-m", "tfscope", "ir", *argv], capture_output=True, text=True)


def test_ir_command_prints_the_hlo_text(tmp_path):
    r = _ir_cli(tmp_path, "MODEL:dense", "--args", "f32[2,3],f32[3,4]", "--normalize")
    assert r.returncode == 0, r.stderr
    assert r.stdout == _compiler_ir.normalize(recorded("dense"))


def test_ir_command_prints_control_flow(tmp_path):
    r = _ir_cli(tmp_path, "MODEL:cond", "--args", "f32[2,3]", "--normalize")
    assert r.returncode == 0, r.stderr
    assert r.stdout == _compiler_ir.normalize(recorded("cond"))


def test_ir_command_names_the_supported_stages(tmp_path):
    r = _ir_cli(tmp_path, "MODEL:dense", "--args", "f32[2,3],f32[3,4]", "--stage", "optimized_hlo")
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert r.stderr == ("tfscope: error: ValueError: Invalid stage selected: 'optimized_hlo'. "
                        "Valid values are: 'hlo', 'hlo_no_metadata'\n")


def test_ir_command_errors_are_one_line(tmp_path):
    r = _ir_cli(tmp_path, "MODEL:plain", "--args", "f32[2]")
    assert (r.returncode, r.stderr) == (1, "tfscope: error: ValueError: Compiler IR can only be "
                                           "returned for functions marked with 'jit_compile=True'\n")
    r = _ir_cli(tmp_path, "MODEL:dense", "--args", "q8[2]")
    assert (r.returncode, r.stderr) == (1, "tfscope: error: ValueError: [ir] unknown dtype 'q8' in 'q8[2]'\n")
    r = _ir_cli(tmp_path, "MODEL:dense", "--args", "f32[2,3],f32[4,4]")
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("tfscope: error: ValueError: Dimensions must be equal, but are 3 and 4")
