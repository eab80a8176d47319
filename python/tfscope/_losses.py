"""The losses and clipping of training steps: tf.nn.sparse_softmax_cross_entropy_with_logits over
the engine's SparseSoftmaxCrossEntropyWithLogits (include/tfscope/ops_loss.h), and TF's Python
compositions of softmax_cross_entropy_with_logits, l2_loss, global_norm, clip_by_norm,
clip_by_global_norm and divide_no_nan."""
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


# ---- softmax_cross_entropy_with_logits (v2), l2_loss, global_norm, clip_by_norm,
# clip_by_global_norm, divide_no_nan: TF 2.21's Python compositions, op for op and name for name
# (nn_ops.py, clip_ops.py, math_ops.py) ----

from ._gen import convert as _convert, name_scope as _name_scope  # noqa: E402

_tfs = _sys.modules[__package__]


def _flatten_outer_dims(x):
    """nn_ops._flatten_outer_dims: [..., last] -> [-1, last]."""
    rank = _tfs.rank(x)
    last = _tfs._op("Slice", [_tfs.shape(x), [_tfs._op("Sub", [rank, 1], None, None)], [1]],
                    None, None)
    return _tfs.reshape(x, _tfs.concat([[-1], last], 0))


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    if axis != -1:
        raise NotImplementedError("[losses] softmax_cross_entropy_with_logits with axis other "
                                  "than -1 is not supported yet")
    with _name_scope(name, "softmax_cross_entropy_with_logits") as scope:
        logits = _tfs.convert_to_tensor(logits)
        labels = _tfs.cast(labels, logits.dtype)
        input_rank = _tfs.rank(logits)
        input_shape = _tfs.shape(logits)
        flat_logits = _flatten_outer_dims(logits)
        flat_labels = _flatten_outer_dims(labels)
        cost = _core.apply_op("SoftmaxCrossEntropyWithLogits", [flat_logits, flat_labels], None,
                              scope or None)[0]
        size = [_tfs._op("Sub", [input_rank, 1], None, None)]
        output_shape = _tfs._op("Slice", [input_shape, [0], size], None, None)
        cost = _tfs.reshape(cost, output_shape)
        if logits.shape.rank is not None:  # cost.set_shape(shape[:-1])
            cost = _core.set_static_shape(
                cost, [-1 if d is None else d for d in logits.shape.as_list()[:-1]])
        return cost


def _ones_like(x):
    """array_ops.ones_like as TF builds it in a graph for a static shape (a Fill of constants)."""
    if _core.executing_eagerly() or not x.shape.is_fully_defined():
        return _tfs.ones_like(x)
    with _name_scope(None, "ones_like") as scope:
        with _name_scope(None, "Shape"):
            dims = _convert(x.shape.as_list(), _tfs.int32, "shape_as_tensor")
        one = _convert(1, x.dtype, "Const")
        return _core.apply_op("Fill", [dims, one], None, scope)


def l2_loss(t, name=None):
    return _tfs._op("L2Loss", [t], None, name)


def global_norm(t_list, name=None):
    if not isinstance(t_list, (list, tuple)) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    with _name_scope(name, "global_norm") as scope:
        values = [None if t is None else _tfs.convert_to_tensor(t) for t in t_list]
        half_squared = [_tfs._op("L2Loss", [v], None, None) for v in values if v is not None]
        half = _tfs.reduce_sum(_tfs.stack(half_squared))
        two = _tfs.constant(2.0, dtype=half.dtype)
        return _tfs._op("Sqrt", [half * two], None, "global_norm" if scope else None)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    if not isinstance(t_list, (list, tuple)) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    t_list = list(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    with _name_scope(name, "clip_by_global_norm") as scope:
        scale_for_finite = clip_norm * _tfs.minimum(
            1.0 / use_norm, _tfs.constant(1.0, dtype=use_norm.dtype) / clip_norm)
        scale = scale_for_finite + (use_norm - use_norm)
        clipped = []
        for i, t in enumerate(t_list):
            if t is None:
                clipped.append(None)
                continue
            v = _tfs.convert_to_tensor(t)
            clipped.append(_tfs._op("Identity", [v * _tfs.cast(scale, v.dtype)], None,
                                    "%s_%d" % (scope, i) if scope else None))
    return clipped, use_norm


def clip_by_norm(t, clip_norm, axes=None, name=None):
    with _name_scope(name, "clip_by_norm") as scope:
        values = _tfs.convert_to_tensor(t)
        l2sum = _tfs.reduce_sum(values * values, axes, keepdims=True)
        pred = l2sum > 0
        l2sum_safe = _tfs._op("Select", [pred, l2sum, _ones_like(l2sum)], None, None)
        l2norm = _tfs._op("Select", [pred, _tfs.sqrt(l2sum_safe), l2sum], None, None)
        intermediate = values * clip_norm
        if not values.shape.is_compatible_with(intermediate.shape):
            raise ValueError(f"Shapes {values.shape} and {intermediate.shape} are incompatible")
        return _core.apply_op("Identity", [intermediate / _tfs.maximum(l2norm, clip_norm)], None,
                              scope or None)


def divide_no_nan(x, y, name=None):
    with _name_scope(name, "div_no_nan") as scope:
        x = _tfs.convert_to_tensor(x)
        y = _tfs.convert_to_tensor(y, dtype=x.dtype)
        return _core.apply_op("DivNoNan", [x, y], None, scope or None)


_tfs.nn.softmax_cross_entropy_with_logits = staticmethod(softmax_cross_entropy_with_logits)
_tfs.nn.l2_loss = staticmethod(l2_loss)
_tfs.linalg.global_norm = staticmethod(global_norm)
_tfs.clip_by_norm = clip_by_norm
_tfs.clip_by_global_norm = clip_by_global_norm
_tfs.math.divide_no_nan = staticmethod(divide_no_nan)
