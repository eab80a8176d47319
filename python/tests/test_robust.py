"""Inputs that must end in one clear Python exception, never a crash, a hang or internal text.

Where TF 2.21 raises, the conformance case err_bad_shapes compares the texts live; the tests here
cover what cannot be compared there because TF itself aborts or returns a wrong tensor (noted at
each test), and tfscope's own extras.
"""
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
