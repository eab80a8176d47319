"""tf.py_function / tf.numpy_function errors: the callback's exception is an InvalidArgumentError
whose text is built as TF 2.21's (recorded from tensorflow-cpu 2.21.0): the kernel's wrapper
name, the exception's type and message, its traceback (TF's lists its own script_ops frames too,
so only the shape is compared), then the eager op suffix or the graph node."""
import re

import pytest

import tfscope as tf


def bad(x):
    raise ValueError("boom")


def test_eager_exception_is_tfs_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.py_function(bad, [tf.constant(1)], tf.int32)
    text = str(e.value)
    assert text.startswith(
        "{{function_node __wrapped__EagerPyFunc_Tin_1_Tout_1_device_/job:localhost/replica:0/"
        "task:0/device:CPU:0}} ValueError: boom\nTraceback (most recent call last):\n\n")
    assert 'in bad\n    raise ValueError("boom")\n' in text
    assert text.endswith("\nValueError: boom\n\n [Op:EagerPyFunc] name: ")


def test_graph_exception_names_the_node():
    @tf.function
    def f(x):
        return tf.py_function(bad, [x], tf.int32)

    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        f(tf.constant(1))
    text = str(e.value)
    assert "\nValueError: boom\nTraceback (most recent call last):\n" in text
    assert re.search(r"\n\t \[\[\{\{node EagerPyFunc\}\}\]\] \[Op:__inference_f_\d+\]$", text)


def test_wrong_output_dtype_is_tfs_conversion_error():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.py_function(lambda x: x, [tf.constant(1)], tf.float32)
    assert ("}} ValueError: Tensor conversion requested dtype float32 for Tensor with dtype "
            "int32: <tf.Tensor: shape=(), dtype=int32, numpy=1>\nTraceback") in str(e.value)


def test_numpy_function_exception():
    # Eagerly TF calls the function itself: its exception as raised.
    with pytest.raises(ValueError, match="^boom$"):
        tf.numpy_function(bad, [tf.constant(1)], tf.int32)

    @tf.function
    def f(x):
        return tf.numpy_function(bad, [x], tf.int32)

    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        f(tf.constant(1))
    assert "\nValueError: boom\nTraceback (most recent call last):\n" in str(e.value)
    assert re.search(r"\n\t \[\[\{\{node PyFunc\}\}\]\] \[Op:__inference_f_\d+\]$", str(e.value))
