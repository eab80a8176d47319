"""Inputs that must end in one clear Python exception, never a crash, a hang or internal text.

Where TF 2.21 raises, the conformance case err_bad_shapes compares the texts live; the tests here
cover what cannot be compared there because TF itself aborts or returns a wrong tensor (noted at
each test), and tfscope's own extras.
"""
import json

import pytest

import tfscope
import tfscope as tf


def _nested_list(depth, leaf=1):
    x = leaf
    for _ in range(depth):
        x = [x]
    return x


def test_constant_of_a_list_deeper_than_the_recursion_limit_raises_recursion_error():
    # TF 2.21 aborts the process here (a Check failure "Too many dimensions in tensor").
    with pytest.raises(RecursionError, match="maximum recursion depth exceeded while calling a "
                                             "Python object"):
        tf.constant(_nested_list(100000))


def test_constant_of_a_deep_or_self_holding_list_of_bytes_raises_recursion_error():
    # The bytes path of the conversion (string elements) walks under the same guard (found by
    # fuzz_python_values: a deep nest with bytes overflowed the C stack).
    with pytest.raises(RecursionError):
        tf.constant([b"a", _nested_list(100000, b"b")])
    loop = [b"a"]
    loop.append(loop)
    with pytest.raises(RecursionError):
        tf.constant(loop)


def test_constant_of_rank_past_tensorshapes_limit_is_invalid_argument():
    # TensorShape holds at most 254 dimensions; TF 2.21 aborts on a 255-deep list.
    assert tf.constant(_nested_list(254)).shape.rank == 254
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Too many dimensions in tensor$"):
        tf.constant(_nested_list(255))


def test_zeros_too_large_for_int64_fails_when_the_function_runs():
    # TF 2.21 truncates the dims to int32 in a graph and returns a (0, 4) tensor; tfscope keeps
    # the dims (4611686018427387904, 4) and its Fill kernel refuses them, as TF's eager Fill does.
    @tf.function
    def big():
        return tf.zeros([2**62, 4])

    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Shape \[4611686018427387904,4\] would have more than 2\*\*63 - 1 "
                             r"elements"):
        big()


class _Module(tf.Module):
    def __init__(self, value):
        self.v = tf.Variable(tf.fill([100000, 4], value))

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def f(self, x):
        return x + self.v[0]


def test_saved_model_save_writes_into_a_directory_and_keeps_the_rest(tmp_path):
    # TF 2.21 replaces the model's files and leaves the others (checked with tensorflow-cpu).
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "keep").mkdir()
    (tmp_path / "keep" / "main.py").write_text("print(1)")
    tf.saved_model.save(_Module(1.0), str(tmp_path))
    tf.saved_model.save(_Module(2.0), str(tmp_path))
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert (tmp_path / "keep" / "main.py").read_text() == "print(1)"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "assets", "fingerprint.pb", "keep", "notes.txt", "saved_model.pb", "variables"]
    # TF's saved_model.pb for this model is 11 KB: the initializer is a Fill, not 1.6 MB of zeros
    assert (tmp_path / "saved_model.pb").stat().st_size < 20000
    out = tf.saved_model.load(str(tmp_path)).signatures["serving_default"](x=tf.zeros([1, 4]))
    assert out["output_0"].numpy().tolist() == [[2.0, 2.0, 2.0, 2.0]]


def test_saved_model_save_onto_a_file_is_tfs_failed_precondition(tmp_path):
    target = tmp_path / "afile"
    target.write_text("x")
    for path in (target, target / "sub"):
        with pytest.raises(tf.errors.FailedPreconditionError) as e:
            tf.saved_model.save(_Module(1.0), str(path))
        assert str(e.value) == "%s is not a directory" % target  # TF 2.21's text
    assert target.read_text() == "x"


def test_report_in_an_unknown_format_names_the_formats():
    cf = tf.function(lambda x: x + 1).get_concrete_function(tf.constant(1))
    with pytest.raises(ValueError, match=r"^\[report\] unknown format 'svg'; the formats are "
                                         r"'text', 'json' and 'dot'$"):
        tfscope.report(cf, "svg")


def test_damaged_tflite_names_are_escaped_not_a_unicode_error(tmp_path):
    # A name with bytes that are not UTF-8 (as a flipped byte makes) reads as \xNN escapes.
    model = tf.lite.TFLiteConverter.from_concrete_functions(
        [tf.function(lambda x: x * 2.0).get_concrete_function(
            tf.TensorSpec([1, 4], tf.float32, name="abc"))]).convert()
    assert b"abc" in model
    damaged = model.replace(b"abc", b"\xffbc")
    path = tmp_path / "damaged.tflite"
    path.write_bytes(damaged)
    interpreter = tf.lite.Interpreter(model_path=str(path))
    assert "\\xffbc" in interpreter.get_input_details()[0]["name"]
    # the JSON report replaces the byte with U+FFFD
    assert "\\ufffdbc" in json.dumps(tfscope.lite.inspect(str(path), as_json=True))


_LONG_LOOP = r'''
import faulthandler, signal
faulthandler.register(signal.SIGUSR1, all_threads=True)  # the test's stack dump if it hangs
# A child of a background job (make test under nohup or CI) inherits SIGINT ignored, and Python
# then installs no KeyboardInterrupt handler: install it, as an interactive shell would have it.
signal.signal(signal.SIGINT, signal.default_int_handler)
import tfscope as tf

@tf.function
def loop(n):
    return tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x + 1.0),
                         [tf.constant(0), tf.constant(0.0)])

loop(tf.constant(10))
n = tf.constant(2**31 - 1)
try:
    print("ready", flush=True)
    loop(n)  # about half an hour
    print("finished")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
'''


def test_ctrl_c_stops_a_long_while_loop_in_a_function():
    # tfscope extension: TF 2.21's graph While keeps running after SIGINT (checked for 90 s).
    import signal
    import subprocess
    import sys
    import time
    p = subprocess.Popen([sys.executable, "-c", _LONG_LOOP], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(1)  # let the loop start: a signal before it would not test the loop
        p.send_signal(signal.SIGINT)
        try:
            out, err = p.communicate(timeout=60)  # a hang guard, not a timing claim
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGUSR1)  # every thread's Python stack, for the report
            time.sleep(2)
            p.kill()
            out, err = p.communicate()
            raise AssertionError("no exit 60 s after SIGINT; stdout %r; stacks:\n%s"
                                 % (out, err[-3000:]))
    finally:
        p.kill()
    assert out.strip() == "KeyboardInterrupt", err[-500:]


def test_ragged_to_tensor_with_partition_types_of_the_wrong_kind_is_one_clear_error():
    # a list of ints where TF wants a list of strings: before, the kernel leaked
    # "std::get: wrong index for variant"
    with pytest.raises(tfscope.errors.InvalidArgumentError, match="row_partition_types, a list of strings"):
        tfscope.raw_ops.RaggedTensorToTensor(
            shape=tfscope.constant(-1, tfscope.int64), values=[1, 2], default_value=0,
            row_partition_tensors=[tfscope.constant([0, 1, 2], tfscope.int64)],
            row_partition_types=[3])


def test_a_damaged_fullargspec_is_a_one_line_value_error():
    # Found by tests/cli/byte_flip.py: a flipped byte in a tfscope saved_model.pb decoded the
    # function's fullargspec to another structure, and loading leaked "AttributeError:
    # 'FullArgSpec' object has no attribute 'defaults'".
    from tfscope import _saved_objects
    with pytest.raises(ValueError, match="^malformed SavedModel: a function's "
                                         "function_spec.fullargspec is a tuple, not a FullArgSpec$"):
        _saved_objects._signature_of(("x", None), False)
