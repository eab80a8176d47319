"""Dataset.from_generator: the Python generator runs on the Python side; each element is
converted to the output signature's dtypes and checked against its shapes, as TF's
generator_py_func does, with TF's texts (TF's also carry the Python traceback)."""
import numpy as _np

from .. import _core
from .. import errors as _errors
from .._types import TensorShape, TensorSpec, as_dtype
from . import _nest

# TF's text is this with the generator's Python traceback (from TF's own frames) between the
# first line and "[Op:IteratorGetNext]"; tfscope keeps the first line.
_WRAP = ("{{function_node __wrapped__IteratorGetNext_output_types_%d_device_/job:localhost/"
         "replica:0/task:0/device:CPU:0}} TypeError: %s\n [Op:IteratorGetNext] name: ")


def _signature(output_types, output_shapes, output_signature):
    if output_signature is not None:
        if output_types is not None or output_shapes is not None:
            raise TypeError("The `output_types` and `output_shapes` arguments can only be used "
                            "when `output_signature` is not specified.")
        leaves, structure = _nest.flatten_values(output_signature)
        for s in leaves:
            if not isinstance(s, TensorSpec):
                raise TypeError("`output_signature` must contain objects that are subclass of "
                                "`tf.TypeSpec` but found %s which is not." % type(s))
        return leaves, structure
    if output_types is None:
        raise TypeError("To specify the output signature you need to provide either the "
                        "`output_signature` argument or the `output_types` argument.")
    types, structure = _nest.flatten_values(output_types)
    if output_shapes is None:
        shapes = [None] * len(types)
    else:
        shapes = _nest.flatten(structure, output_shapes, leaf_lists=True)
    return [TensorSpec(TensorShape(s), as_dtype(t)) for t, s in zip(types, shapes)], structure


def from_generator(generator, output_types, output_shapes, args, output_signature):
    from . import _FlatMapDataset

    if not callable(generator):
        raise TypeError("`generator` must be a Python callable.")
    specs, structure = _signature(output_types, output_shapes, output_signature)
    n = len(specs)
    types_text = repr(_nest.pack(structure, [s.dtype for s in specs]))
    call_args = tuple(args) if args is not None else ()

    def fail(msg):
        raise _errors.InvalidArgumentError(None, None, _WRAP % (n, msg))

    def convert(value, spec):
        dtype = spec.dtype
        try:
            if dtype == as_dtype("string"):
                arr = _np.asarray(value, dtype=object)
            else:
                arr = _np.asarray(value).astype(dtype.as_numpy_dtype)
        except (ValueError, TypeError):
            fail("`generator` yielded an element that could not be converted to the expected "
                 "type. The expected type was %s, but the yielded element was %s."
                 % (dtype.name, value))
        if not TensorShape(arr.shape).is_compatible_with(spec.shape):
            fail("`generator` yielded an element of shape %s where an element of shape %s was "
                 "expected." % (TensorShape(arr.shape), spec.shape))
        return _core.convert_to_tensor(arr, dtype)

    def make():
        it = iter(generator(*call_args))

        def next_flat():
            try:
                value = next(it)
            except StopIteration:
                return None
            try:
                leaves = _nest.flatten(structure, value)
            except ValueError:
                leaves = None
            if leaves is None or (structure is not _nest.LEAF and not isinstance(value, (tuple, dict, list))):
                fail("`generator` yielded an element that did not match the expected structure. "
                     "The expected structure was %s, but the yielded element was %s."
                     % (types_text, value))
            return [convert(v, s) for v, s in zip(leaves, specs)]

        return next_flat

    core = _core.DatasetCore.from_python(make, [(s.shape.as_list() if s.shape.rank is not None
                                                 else None, s.dtype) for s in specs])
    return _FlatMapDataset(core, structure=structure)
