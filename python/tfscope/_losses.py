"""The losses of training steps, added to tf.nn: sparse_softmax_cross_entropy_with_logits over
the engine's SparseSoftmaxCrossEntropyWithLogits (include/tfscope/ops_loss.h)."""
import sys as _sys

from . import _core


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    if labels is None or logits is None:
        raise ValueError("Both `labels` and `logits` must be provided for "
                         "sparse_softmax_cross_entropy_with_logits"
                         f"Received: labels={labels} and logits={logits}")
    return _core.sparse_softmax_cross_entropy_with_logits(labels, logits)


_sys.modules[__package__].nn.sparse_softmax_cross_entropy_with_logits = staticmethod(
    sparse_softmax_cross_entropy_with_logits)
