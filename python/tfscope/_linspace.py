"""tf.linspace as TF 2.21's math_ops.linspace_nd builds it (no LinSpace op: start and stop
broadcast, `num` evenly spaced values along `axis` from start + delta * [1 .. num-2] between
the two end points, sliced to num), and tf.broadcast_dynamic_shape (BroadcastArgs)."""
from . import _core
from ._gen import convert, name_scope


def _tf():
    import tfscope
    return tfscope


def broadcast_dynamic_shape(shape_x, shape_y):
    return _core.apply_op("BroadcastArgs", [shape_x, shape_y])


def _where_v2(condition, x, y):
    """array_ops.where_v2: SelectV2 with its operands converted as its inputs."""
    return _core.apply_op("SelectV2", [condition, x, y])


def _convert_to_int_tensor(tensor, name):
    """array_ops.convert_to_int_tensor: an integer tensor, always through a Cast to int32."""
    tf = _tf()
    tensor = convert(tensor, None, name)
    if not tensor.dtype.is_integer:
        shown = tensor if tensor._is_symbolic else tensor.numpy()
        raise TypeError(f"Argument `tensor` (name: {name}) must be of type integer. Received "
                        f"`tensor` = {shown} of dtype: {tensor.dtype}")
    return _core.apply_op("Cast", [tensor], {"DstT": tf.int32, "Truncate": False})


def linspace(start, stop, num, name=None, axis=0):
    tf = _tf()
    with name_scope(name, "linspace"):
        start = convert(start, None, "start")
        stop = convert(stop, start.dtype, "stop")
        num_int = _convert_to_int_tensor(num, "num")
        num = tf.cast(num_int, dtype=start.dtype)
        del num  # TF computes it and never uses it
        broadcast_shape = broadcast_dynamic_shape(tf.shape(start), tf.shape(stop))
        start = tf.broadcast_to(start, broadcast_shape)
        stop = tf.broadcast_to(stop, broadcast_shape)
        expanded_start = tf.expand_dims(start, axis=axis)
        expanded_stop = tf.expand_dims(stop, axis=axis)
        shape = tf.shape(expanded_start)
        ndims = tf.shape(shape)[0]
        axis = _where_v2(axis >= 0, axis, ndims + axis)
        num_fill = tf.math.maximum(num_int - 2, 0)
        n_steps = tf.math.maximum(num_int - 1, 1)
        delta = (expanded_stop - expanded_start) / tf.cast(n_steps, expanded_stop.dtype)
        expanded_start = tf.cast(expanded_start, delta.dtype)
        expanded_stop = tf.cast(expanded_stop, delta.dtype)
        range_end = _where_v2(num_int >= 0, n_steps, -1)
        desired_range = tf.cast(tf.range(1, range_end, dtype=tf.int64), delta.dtype)
        mask = tf.equal(axis, tf.range(ndims))
        desired_range_shape = _where_v2(mask, num_fill, 1)
        desired_range = tf.reshape(desired_range, desired_range_shape)
        res = expanded_start + delta * desired_range
        concatenated = tf.concat((expanded_start, res, expanded_stop), axis=axis)
        begin = tf.zeros_like(shape)
        size = tf.concat((shape[0:axis], tf.reshape(num_int, [1]), shape[axis + 1:]), axis=0)
        return tf.slice(concatenated, begin, size)

