"""tf.errors' classes behave as TF 2.21's (recorded from tensorflow-cpu 2.21.0, TF_FACTS.md §28):
constructed with (node_def, op, message, ...), str() the message, an empty args tuple, pickled
through their own arguments; the engine raises them with node_def and op None."""
import pickle

import pytest

import tfscope as tf


def test_an_op_error_is_built_from_node_def_op_and_message():
    e = tf.errors.InvalidArgumentError(None, None, "boom")
    # TF: str 'boom', args (), error_code 3, repr InvalidArgumentError().
    assert (str(e), e.args, e.error_code, e.message, e.node_def, e.op, repr(e)) == (
        "boom", (), 3, "boom", None, None, "InvalidArgumentError()")
    assert e.experimental_payloads == {}
    assert tf.errors.NotFoundError(None, None, "nf", {"a": "b"}).experimental_payloads == {
        "a": "b"}


def test_the_base_class_takes_the_error_code():
    e = tf.errors.OpError(None, None, "m", tf.errors.UNAVAILABLE)
    assert (str(e), e.error_code, repr(e)) == ("m", 14, "OpError()")


def test_the_message_alone_is_a_type_error_as_in_tf():
    with pytest.raises(TypeError) as info:
        tf.errors.InvalidArgumentError("x")
    assert str(info.value) == ("InvalidArgumentError.__init__() missing 2 required positional "
                               "arguments: 'op' and 'message'")


@pytest.mark.parametrize("make", [
    lambda: tf.errors.OutOfRangeError(None, None, "end"),
    lambda: tf.errors.OpError(None, None, "m", 3)])
def test_errors_pickle_through_their_arguments(make):
    e = make()
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is type(e)
    assert (str(back), back.error_code) == (str(e), e.error_code)


def test_the_engine_raises_them_with_node_def_and_op_none():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.reshape(tf.constant([1, 2, 3]), [2])
    e = info.value
    assert type(e) is tf.errors.InvalidArgumentError
    assert (e.node_def, e.op, e.error_code, e.args) == (None, None, 3, ())
    assert str(e) == e.message and "Input to reshape is a tensor with 3 values" in str(e)


def test_python_raised_errors_too():
    ta = tf.TensorArray(tf.float32, size=1)
    with pytest.raises(tf.errors.OutOfRangeError) as info:
        ta.read(3)
    assert info.value.node_def is None and info.value.error_code == 11
    assert str(info.value).startswith("Tried to read from index 3 but array size is: 1")
