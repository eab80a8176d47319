"""Convolution and pooling: tf.nn.conv2d, conv1d, depthwise_conv2d, conv2d_transpose,
max_pool2d and avg_pool2d (NHWC), over the engine's front ends (include/tfscope/ops_conv.h). The
argument handling (an int or a list for strides, ksize and dilations; a padding list) is TF 2.21's
nn_ops code with its texts."""
import re as _re

from . import _core


def _get_sequence(value, n, channel_index, name):
    """nn_ops._get_sequence: value as the op's list of n + 2 ints."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, list):
        pass
    elif isinstance(value, tuple):
        value = list(value)
    elif isinstance(value, int):
        value = [value]
    elif not hasattr(value, "__len__"):
        value = [value]
    else:
        value = list(value)
    len_value = len(value)
    if len_value == n + 2:
        return value
    if len_value == 1:
        value = value * n
    elif len_value != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. "
                         f"Received: {name}={value} of length {len_value}")
    if channel_index == 1:
        return [1, 1] + value
    return [1] + value + [1]


def _convert_padding(padding, expected_length=4):
    """nn_ops.convert_padding: a list of pairs becomes EXPLICIT padding."""
    explicit_paddings = []
    if padding == "EXPLICIT":
        raise ValueError(f"{padding!r} is not a valid value for `padding`. To use explicit "
                         "padding, `padding` must be a list.")
    if isinstance(padding, (list, tuple)):
        for i, dim_paddings in enumerate(padding):
            if not isinstance(dim_paddings, (list, tuple)):
                raise ValueError("When padding is a list, each element of padding must be a "
                                 f"list/tuple of size 2. Received: padding={padding} with element at "
                                 f"index {i} of type {type(dim_paddings)}")
            if len(dim_paddings) != 2:
                raise ValueError("When padding is a list, each element of padding must be a "
                                 f"list/tuple of size 2. Received: padding={padding} with element at "
                                 f"index {i} of size {len(dim_paddings)}")
            explicit_paddings.extend(dim_paddings)
        if len(padding) != expected_length:
            raise ValueError(f"When padding is a list, it must be of size {expected_length}. "
                             f"Received: padding={padding} of size {len(padding)}")
        padding = "EXPLICIT"
    return padding, [int(p) for p in explicit_paddings]


def _string_padding(padding):
    """op_def_library's _MakeStr for an op whose padding is a plain string attr."""
    if not isinstance(padding, (str, bytes)):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    return padding.decode() if isinstance(padding, bytes) else padding


def _check_nhwc(data_format):
    if data_format not in (None, "NHWC", "NWC"):
        raise NotImplementedError(f"[ops] data_format {data_format!r}: tfscope runs NHWC only")


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    _check_nhwc(data_format)
    strides = _get_sequence(strides, 2, 3, "strides")
    dilations = _get_sequence(dilations, 2, 3, "dilations")
    padding, explicit = _convert_padding(padding)
    return _core.conv2d(input, filters, strides, _string_padding(padding), explicit, dilations,
                        name or "")


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):  # noqa: A002
    _check_nhwc(data_format)
    strides = [1] + _get_sequence(stride, 1, 2, "stride")
    dilations = [1] + _get_sequence(dilations, 1, 2, "dilations")
    return _core.conv1d(input, filters, strides, _string_padding(padding), dilations)


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):  # noqa: A002
    _check_nhwc(data_format)
    rate = [1, 1] if dilations is None else list(dilations)
    padding, explicit = _convert_padding(padding)
    return _core.depthwise_conv2d(input, filter, [int(s) for s in strides], _string_padding(padding),
                                  explicit, [1] + [int(r) for r in rate] + [1])


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",  # noqa: A002
                     dilations=None, name=None):
    _check_nhwc(data_format)
    strides = _get_sequence(strides, 2, 3, "strides")
    dilations = _get_sequence(dilations, 2, 3, "dilations")
    padding, explicit = _convert_padding(padding)
    return _core.conv2d_transpose(input, filters, output_shape, strides, _string_padding(padding),
                                  explicit, dilations)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    _check_nhwc(data_format)
    ksize = _get_sequence(ksize, 2, 3, "ksize")
    strides = _get_sequence(strides, 2, 3, "strides")
    padding, explicit = _convert_padding(padding)
    return _core.max_pool2d(input, ksize, strides, _string_padding(padding), explicit, name or "")


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    _check_nhwc(data_format)
    ksize = _get_sequence(ksize, 2, 3, "ksize")
    strides = _get_sequence(strides, 2, 3, "strides")
    return _core.avg_pool2d(input, ksize, strides, _string_padding(padding), name or "")


def install(nn):
    """Puts the functions into the tf.nn namespace class."""
    for fn in (conv2d, conv1d, depthwise_conv2d, conv2d_transpose, max_pool2d, avg_pool2d):
        setattr(nn, fn.__name__, staticmethod(fn))


def _resolve_einsum_equation(equation, num_inputs):
    """special_math_ops' parsing: TF's texts for a malformed equation, the implicit output (the
    labels that appear once, sorted) written out."""
    equation = equation.replace(" ", "")
    if not _re.match(r"^([a-zA-Z,.]+)(->[a-zA-Z.]*)?$", equation):
        raise ValueError(f"Subscripts have incorrect format: {equation}")
    lhs, arrow, out = equation.partition("->")
    subscripts = lhs.split(",")
    if len(subscripts) != num_inputs:
        raise ValueError(f'Got {num_inputs} inputs for equation "{equation}", expecting {len(subscripts)}')
    if "." in equation:
        raise NotImplementedError("[ops] tf.einsum with an ellipsis: not supported by tfscope")
    if not arrow:
        counts = {}
        for c in lhs.replace(",", ""):
            counts[c] = counts.get(c, 0) + 1
        out = "".join(sorted(c for c, n in counts.items() if n == 1))
    for c in out:
        if c not in lhs:
            raise ValueError(f"Output subscripts contain the label {c} not present in the input subscripts.")
    return f"{lhs}->{out}"


def einsum(equation, *inputs, **kwargs):
    """special_math_ops._einsum_v2 for explicit equations: one Einsum node in an "einsum" scope,
    its operands converted there as "inputs", "inputs_1", ..."""
    from . import _gen  # noqa: PLC0415  (ops.name_scope, convert_to_tensor)
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for this function: {', '.join(sorted(kwargs))}. "
                        "Expected: name.")
    equation = _resolve_einsum_equation(equation, len(inputs))
    with _gen.name_scope(name, "einsum") as scope:
        tensors = [_gen.convert(x, None, "inputs") for x in inputs]
        names = [t.dtype.name for t in tensors]
        if len(set(names)) > 1 and not _core.executing_eagerly():
            raise TypeError(f"Tensors in list passed to 'inputs' of 'Einsum' Op have types "
                            f"[{', '.join(names)}] that don't all match.")
        return _core.apply_op("Einsum", [tensors], {"equation": equation, "N": len(tensors)})
