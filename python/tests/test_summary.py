"""tf.summary's event files read back by TensorBoard's own loader (tensorboard is in the
project's .venv): the header event, a scalar's step and value, histogram rows worked out by
hand, and the text. The comparison with TF itself is conformance/cases/summary_*.py."""
import os

import numpy as np
import pytest

import tfscope as tf

loader = pytest.importorskip("tensorboard.backend.event_processing.event_file_loader")
tensor_util = pytest.importorskip("tensorboard.util.tensor_util")


def _events(logdir):
    (name,) = os.listdir(logdir)
    assert name.startswith("events.out.tfevents.") and name.endswith(".v2")
    return list(loader.EventFileLoader(os.path.join(logdir, name)).Load())


def test_scalar_histogram_text_in_a_function(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))

    @tf.function
    def log(x, step):
        with w.as_default(step=step):
            tf.summary.scalar("loss", x)
            # 4 values in 2 buckets over [1, 5]: edges 1, 3, 5; 1 and 2 below 3, 4 and 5 above.
            tf.summary.histogram("h", [1.0, 2.0, 4.0, 5.0], buckets=2)
            tf.summary.text("note", "hi")
        return x

    log(tf.constant(0.75), tf.constant(7, tf.int64))
    events = _events(str(tmp_path))
    assert events[0].file_version == "brain.Event:2"
    by_tag = {v.tag: (e.step, v) for e in events[1:] for v in e.summary.value}
    step, v = by_tag["loss"]
    assert step == 7 and v.metadata.plugin_data.plugin_name == "scalars"
    assert tensor_util.make_ndarray(v.tensor) == np.float32(0.75)
    step, v = by_tag["h"]
    np.testing.assert_array_equal(tensor_util.make_ndarray(v.tensor),
                                  [[1.0, 3.0, 2.0], [3.0, 5.0, 2.0]])
    _, v = by_tag["note"]
    assert tensor_util.make_ndarray(v.tensor) == b"hi"


def test_record_if_false_writes_nothing(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))
    with w.as_default(step=1), tf.summary.record_if(False):
        assert not bool(tf.summary.scalar("s", 1.0))
    assert len(_events(str(tmp_path))) == 1  # the header only


def test_no_step_is_an_error(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))
    with w.as_default(), pytest.raises(ValueError, match="No step set"):
        tf.summary.scalar("s", 1.0)
