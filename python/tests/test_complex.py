"""tf.complex64/complex128 in the Python API: how TF 2.21 prints them, converts Python complex
numbers, traces them, and rejects them (texts recorded from TF 2.21; conformance case ops_complex
compares the rest live)."""
import logging

import numpy as np
import pytest

import tfscope as tf


def test_prints_as_tf():
    assert str(tf.constant(1 + 2j)) == "tf.Tensor((1+2j), shape=(), dtype=complex128)"
    assert repr(tf.constant(1 + 2j, dtype=tf.complex64)) == (
        "<tf.Tensor: shape=(), dtype=complex64, numpy=(1+2j)>")
    assert str(tf.constant([1 + 2j, 3.5 - 1j], dtype=tf.complex64)) == (
        "tf.Tensor([1. +2.j 3.5-1.j], shape=(2,), dtype=complex64)")
    assert repr(tf.complex(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]))) == (
        "<tf.Tensor: shape=(2,), dtype=complex64, numpy=array([1.+3.j, 2.+4.j], dtype=complex64)>")


def test_python_numbers_beside_a_complex_tensor():
    z = tf.constant([3 + 4j, -1 - 2j], dtype=tf.complex64)
    np.testing.assert_array_equal((z + 1j).numpy(), np.array([3 + 5j, -1 - 1j], np.complex64))
    np.testing.assert_array_equal((z * 2).numpy(), np.array([6 + 8j, -2 - 4j], np.complex64))
    assert (z + 1).dtype == tf.complex64


def test_parts_and_cast_warning(caplog):
    z = tf.constant([3 + 4j, -1 - 2j], dtype=tf.complex64)
    np.testing.assert_array_equal(tf.math.abs(z).numpy(), np.array([5, 2.236068], np.float32))
    assert tf.math.real(z).dtype == tf.float32 and tf.math.imag(z).numpy().tolist() == [4, -2]
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert tf.cast(z, tf.float32).numpy().tolist() == [3, -1]
    assert ("You are casting an input of type complex64 to an incompatible dtype float32.  This "
            "will discard the imaginary part and may not be what you intended.") in caplog.text


def test_traces_per_complex_dtype():
    @tf.function
    def f(x):
        return x * 2

    f(tf.constant([1j], tf.complex64))
    f(tf.constant([2j], tf.complex64))
    f(tf.constant([1j], tf.complex128))
    assert f.experimental_get_tracing_count() == 2
    cf = f.get_concrete_function(tf.TensorSpec([2], tf.complex64))
    assert repr(cf.structured_input_signature) == (
        "((TensorSpec(shape=(2,), dtype=tf.complex64, name='x'),), {})")


def test_errors_as_tf():
    with pytest.raises(TypeError, match="The `real` and `imag` components have incorrect types: "
                                        "float32 float64. They must be consistent"):
        tf.complex(tf.constant([1.0]), tf.constant([1.0], tf.float64))

    @tf.function
    def relu(x):
        return tf.nn.relu(x)

    with pytest.raises(TypeError, match="Value passed to parameter 'features' has DataType "
                                        "complex64 not in list of allowed values"):
        relu(tf.constant([1j], tf.complex64))
    z = tf.constant([1j], tf.complex64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute AddV2 as input #1"):
        z + tf.constant([1.0])
