"""tf.data for tfscope: datasets without user functions, run eagerly by the C++ engine.

A Dataset holds the engine's dataset (flat components, a variant tensor) and the structure of
its elements (tuples, namedtuples and dicts of components), as TF's Python keeps it in
element_spec. The classes carry TF's names, so a dataset prints as TF prints it
(``<_BatchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, name=None)>``).
"""
import numpy as _np

from .. import _core
from .. import errors as _errors
from .._trace_type import TraceType as _TraceType
from .._types import TensorShape, TensorSpec, as_dtype
from . import _nest

INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
AUTOTUNE = -1

_INT64 = as_dtype("int64")


def _has_bytes(value):
    if isinstance(value, (bytes, bytearray)):
        return True
    if isinstance(value, list) and value:
        return _has_bytes(value[0])
    return False


def _to_tensor(value, dtype=None):
    if isinstance(value, _core.Tensor) and (dtype is None or value.dtype == dtype):
        return value
    if _has_bytes(value):  # bytes go through a numpy object array, as strings
        value = _np.asarray(value, dtype=object)
    return _core.convert_to_tensor(value, None if dtype is None else as_dtype(dtype))


def _count(value):
    """An int64 scalar argument (count, buffer_size, ...) as TF converts it."""
    if isinstance(value, _core.Tensor):
        return value
    return _core.convert_to_tensor(value, _INT64)


class Options:
    """tf.data.Options: the pipeline options tfscope accepts (they change no element)."""

    def __init__(self):
        self.deterministic = None
        self.experimental_deterministic = None

    def merge(self, options):
        merged = Options()
        merged.__dict__.update(self.__dict__)
        merged.__dict__.update({k: v for k, v in options.__dict__.items() if v is not None})
        return merged


class DatasetV2:
    """tf.data.Dataset."""

    def __init__(self, variant_tensor, *, structure=None, options=None, inner=None):
        # TF's one parameter; tfscope's variant_tensor is the engine's dataset (DatasetCore),
        # and what TF keeps in the dataset's type spec comes as keywords.
        self._core = core = variant_tensor
        self._structure = _nest.LEAF if structure is None else structure
        self._options = options if options is not None else Options()
        # Per component: None for a tensor, or the element spec of the dataset it holds (the
        # components of a window).
        self._inner = inner if inner is not None else [None] * len(core.specs())

    # ---- what a dataset is ----
    @property
    def element_spec(self):
        return _nest.pack(self._structure, self._leaf_specs())

    def _leaf_specs(self):
        return [TensorSpec(TensorShape(shape), dtype) if inner is None else DatasetSpec(inner)
                for (shape, dtype), inner in zip(self._core.specs(), self._inner)]

    def _from_flat(self, flat):
        """An element's components as the iterator hands them out: tensors, or datasets."""
        return _components(flat, self._inner)

    @property
    def _type_spec(self):
        return DatasetSpec(self.element_spec)

    def __tf_tracing_type__(self, context):
        return self._type_spec

    def cardinality(self):
        return _core.convert_to_tensor(self._core.cardinality(), _INT64)

    def __len__(self):
        n = self._core.cardinality()
        if n == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return n

    def __bool__(self):
        return True

    def __repr__(self):
        return "<%s element_spec=%r>" % (type(self).__name__, self.element_spec)

    def __iter__(self):
        return OwnedIterator(self)  # in a tf.function: the iterator ops in the graph, as TF

    def as_numpy_iterator(self):
        return NumpyIterator(self)

    def options(self):
        return self._options

    def _derive(self, cls, core, structure=None, inner=None):
        return cls(core, structure=self._structure if structure is None else structure,
                   options=self._options, inner=self._inner if inner is None else inner)

    # ---- sources ----
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        flat, structure = _flatten_values(tensors)
        return _TensorSliceDataset(_core.DatasetCore.from_tensor_slices(flat),
                                   structure=structure)

    @staticmethod
    def from_tensors(tensors, name=None):
        flat, structure = _flatten_values(tensors)
        return _TensorDataset(_core.DatasetCore.from_tensors(flat), structure=structure)

    @staticmethod
    def range(*args, **kwargs):  # noqa: A003
        dtype = as_dtype(kwargs.pop("output_type", kwargs.pop("dtype", _INT64)))
        kwargs.pop("name", None)
        if kwargs:
            raise TypeError("range() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
        if len(args) == 1:
            start, stop, step = 0, args[0], 1
        elif len(args) == 2:
            start, stop, step = args[0], args[1], 1
        elif len(args) == 3:
            start, stop, step = args
        else:
            raise ValueError("Invalid `args`. The length of `args` should be between 1 and 3 "
                             "but was %d." % len(args))
        return _RangeDataset(_core.DatasetCore.range(_count(start), _count(stop), _count(step),
                                                     dtype))

    @staticmethod
    def zip(*args, datasets=None, name=None):
        if datasets is None:
            if not args:
                raise TypeError("Must pass at least one dataset to `zip`.")
            datasets = args[0] if len(args) == 1 else args
        elif args:
            raise TypeError("Both `*args` and `datasets` cannot be set.")
        leaves, template = _nest.flatten_datasets(datasets)
        for ds in leaves:
            if not isinstance(ds, DatasetV2):
                raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) "
                                "structures of `tf.data.Dataset` objects. Python `list` is not "
                                "supported and you should use `tuple` instead.")
        structure = _nest.pack(template, [ds._structure for ds in leaves])
        inner = [i for ds in leaves for i in ds._inner]
        return _ZipDataset(_core.DatasetCore.zip([ds._core for ds in leaves]),
                           structure=structure, inner=inner)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        from ._generator import from_generator
        return from_generator(generator, output_types, output_shapes, args, output_signature)

    # ---- transformations ----
    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        return self._derive(_BatchDataset, self._core.batch(_count(batch_size),
                                                            bool(drop_remainder)))

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        specs = _nest.flatten(self._structure, self.element_spec)
        if padded_shapes is None:
            shapes = []
            for s in specs:
                if s.shape.rank is None:
                    raise ValueError("You must provide `padded_shapes` argument because component "
                                     "%d has unknown rank." % len(shapes))
                shapes.append([-1 if d is None else d for d in s.shape.as_list()])
        else:
            shapes = _nest.flatten(self._structure, padded_shapes, leaf_lists=True)
            shapes = [[-1 if d is None else d for d in (TensorShape(p).as_list()
                       if not isinstance(p, _core.Tensor) else p.numpy().tolist())]
                      for p in shapes]
        if padding_values is None:
            values = [_to_tensor("" if s.dtype == as_dtype("string") else 0, s.dtype)
                      for s in specs]
        else:
            values = [_to_tensor(v, s.dtype) for v, s in
                      zip(_nest.flatten(self._structure, padding_values, broadcast=True), specs)]
        shape_tensors = [_core.convert_to_tensor(_np.array(p, dtype=_np.int64), _INT64)
                         for p in shapes]
        return self._derive(_PaddedBatchDataset, self._core.padded_batch(
            _count(batch_size), shape_tensors, values, bool(drop_remainder)))

    def unbatch(self, name=None):
        normalized = self._normalize_to_dense()
        return normalized._derive(_UnbatchDataset, normalized._core.unbatch())

    def _normalize_to_dense(self):
        """TF's normalize_to_dense before unbatch: a map whose function returns the element's
        components as a flat list (the dense form of each), the element structure kept."""
        structure = self._structure

        def normalize(*args):
            element = args if type(structure) is tuple else args[0]  # noqa: E721
            return _nest.flatten(structure, element)

        traced = self._trace(normalize, "Dataset.map()")
        core = self._core.map(traced.core, None, "default")
        return self._derive(_MapDataset, core)._keep(traced)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        seed1, seed2 = _core.data_seeds(None if seed is None else int(seed))
        reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        return self._derive(_ShuffleDataset, self._core.shuffle(_count(buffer_size), seed1, seed2,
                                                                reshuffle))

    def repeat(self, count=None, name=None):
        return self._derive(_RepeatDataset, self._core.repeat(_count(-1 if count is None
                                                                     else count)))

    def take(self, count, name=None):
        return self._derive(_TakeDataset, self._core.take(_count(count)))

    def skip(self, count, name=None):
        return self._derive(_SkipDataset, self._core.skip(_count(count)))

    def prefetch(self, buffer_size, name=None):
        return self._derive(_PrefetchDataset, self._core.prefetch(_count(buffer_size)))

    def cache(self, filename="", name=None):
        return self._derive(CacheDataset, self._core.cache(str(filename)))

    def enumerate(self, start=0, name=None):  # noqa: A003
        return self._derive(_ZipDataset, self._core.enumerate(_count(start)),
                            (_nest.LEAF, self._structure), [None] + self._inner)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        core = self._core.window(_count(size), _count(size if shift is None else shift),
                                 _count(stride), bool(drop_remainder))
        return self._derive(_WindowDataset, core, inner=self._leaf_specs())

    def with_options(self, options, name=None):
        return _OptionsDataset(self._core.with_options(), structure=self._structure,
                               options=self._options.merge(options), inner=self._inner)

    # ---- transformations with a function (traced once, here: see _functions) ----
    def _trace(self, func, transformation, structure=None, specs=None, inner=None):
        from ._functions import TracedFunction
        return TracedFunction(func, transformation,
                              self._structure if structure is None else structure,
                              self._trace_specs() if specs is None else specs,
                              self._inner if inner is None else inner)

    def _trace_specs(self):
        return [TensorSpec(TensorShape(shape), dtype) if i is None
                else TensorSpec(TensorShape([]), as_dtype("variant"))
                for (shape, dtype), i in zip(self._core.specs(), self._inner)]

    def _derive_traced(self, cls, core, traced):
        return cls(core, structure=traced.output_structure, options=self._options,
                   inner=traced.inner_specs())

    def map(self, map_func, num_parallel_calls=None, deterministic=None, synchronous=None,  # noqa: A003
            use_unbounded_threadpool=False, name=None):
        traced = self._trace(map_func, "Dataset.map()")
        det = "default" if deterministic is None else ("true" if deterministic else "false")
        core = self._core.map(traced.core, num_parallel_calls, det)
        cls = _MapDataset if num_parallel_calls is None else _ParallelMapDataset
        return self._derive_traced(cls, core, traced)._keep(traced)

    def filter(self, predicate, name=None):  # noqa: A003
        traced = self._trace(predicate, "Dataset.filter()")
        _check_predicate(traced)
        return self._derive(_FilterDataset, self._core.filter(traced.core))._keep(traced)

    def take_while(self, predicate, name=None):
        traced = self._trace(predicate, "Dataset.take_while()")
        _check_predicate(traced)
        return self._derive(_TakeWhileDataset, self._core.take_while(traced.core))._keep(traced)

    def _dataset_result(self, traced, what):
        spec = traced.output_spec()
        if not isinstance(spec, DatasetSpec):
            raise TypeError("The `map_func` argument must return a `Dataset` object. Got %s." %
                            _type_name(spec))
        structure, specs, inner = traced.output_inner[0]
        return structure, specs, inner

    def flat_map(self, map_func, name=None):
        traced = self._trace(map_func, "Dataset.flat_map()")
        structure, specs, inner = self._dataset_result(traced, "flat_map")
        core = self._core.flat_map(traced.core, [(s.shape, s.dtype) for s in _tensor_specs(specs)])
        return _FlatMapDataset(core, structure=structure, options=self._options,
                               inner=inner)._keep(traced)

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None):
        traced = self._trace(map_func, "Dataset.interleave()")
        structure, specs, inner = self._dataset_result(traced, "interleave")
        flat_specs = [(s.shape, s.dtype) for s in _tensor_specs(specs)]
        cycle = _count(AUTOTUNE if cycle_length is None else cycle_length)
        block = _count(1 if block_length is None else block_length)
        if num_parallel_calls is None:
            core = self._core.interleave(traced.core, flat_specs, cycle, block)
            cls = _InterleaveDataset
        else:
            det = "default" if deterministic is None else ("true" if deterministic else "false")
            core = self._core.parallel_interleave(traced.core, flat_specs, cycle, block,
                                                  _count(num_parallel_calls), det)
            cls = _ParallelInterleaveDataset
        return cls(core, structure=structure, options=self._options, inner=inner)._keep(traced)

    def scan(self, initial_state, scan_func, name=None):
        return self._scan(initial_state, scan_func)

    def _scan(self, initial_state, scan_func, use_default_device=True):
        from ._functions import trace_with_state
        state, traced = trace_with_state(self, initial_state, scan_func, "Dataset.scan()", True)
        core = self._core.scan(state, traced.core, use_default_device)
        out_structure = traced.output_structure[1]
        n = _nest.count(traced.output_structure[0])
        inner = traced.inner_specs()[n:]
        return _ScanDataset(core, structure=out_structure, options=self._options,
                            inner=inner)._keep(traced)

    def reduce(self, initial_state, reduce_func, name=None):
        from ._functions import trace_with_state
        state, traced = trace_with_state(self, initial_state, reduce_func, "reduce()", False)
        flat = self._core.reduce(state, traced.core)
        return _nest.pack(traced.output_structure, flat)

    def _keep(self, traced):
        self._traced = traced  # the trace lives as long as the dataset (tfscope's ledger reads it)
        return self

    def function_ledger(self):
        """tfscope: how the function of this dataset was traced (a dataset function is traced
        once, when the dataset is built, so its Python runs once and never per element)."""
        traced = getattr(self, "_traced", None)
        if traced is None:
            return ""
        return traced.ledger()


Dataset = DatasetV2


def _dataset_class(name):
    return type(name, (DatasetV2,), {"__module__": __name__})


_TensorSliceDataset = _dataset_class("_TensorSliceDataset")
_TensorDataset = _dataset_class("_TensorDataset")
_RangeDataset = _dataset_class("_RangeDataset")
_ZipDataset = _dataset_class("_ZipDataset")
_BatchDataset = _dataset_class("_BatchDataset")
_PaddedBatchDataset = _dataset_class("_PaddedBatchDataset")
_UnbatchDataset = _dataset_class("_UnbatchDataset")
_ShuffleDataset = _dataset_class("_ShuffleDataset")
_RepeatDataset = _dataset_class("_RepeatDataset")
_TakeDataset = _dataset_class("_TakeDataset")
_SkipDataset = _dataset_class("_SkipDataset")
_PrefetchDataset = _dataset_class("_PrefetchDataset")
CacheDataset = _dataset_class("CacheDataset")
_OptionsDataset = _dataset_class("_OptionsDataset")
_FlatMapDataset = _dataset_class("_FlatMapDataset")  # what from_generator makes in TF
_VariantDataset = _dataset_class("_VariantDataset")  # a dataset held by a tensor (a window)
_MapDataset = _dataset_class("_MapDataset")
_ParallelMapDataset = _dataset_class("_ParallelMapDataset")
_FilterDataset = _dataset_class("_FilterDataset")
_InterleaveDataset = _dataset_class("_InterleaveDataset")
_ParallelInterleaveDataset = _dataset_class("_ParallelInterleaveDataset")
_ScanDataset = _dataset_class("_ScanDataset")
_TakeWhileDataset = _dataset_class("_TakeWhileDataset")  # a dataset held by a tensor (a window)


class DatasetSpec(_TraceType):
    """tf.data.DatasetSpec: the spec of a dataset, as an element component (a window's) and as
    the trace type of a dataset argument of a tf.function (a variant input of the graph, a
    `_VariantDataset` in the body: one trace per element spec, as TF)."""

    def __init__(self, element_spec, dataset_shape=()):
        self._element_spec = element_spec
        self._dataset_shape = TensorShape(dataset_shape)

    element_spec = property(lambda self: self._element_spec)

    def __eq__(self, other):
        return (type(other) is DatasetSpec and
                _spec_key(self._element_spec) == _spec_key(other._element_spec) and
                self._dataset_shape == other._dataset_shape)

    def __hash__(self):
        return hash(("DatasetSpec", _spec_key(self._element_spec)))

    def is_subtype_of(self, other):
        return (type(other) is DatasetSpec and self._dataset_shape == other._dataset_shape and
                _spec_subtype(self._element_spec, other._element_spec))

    def most_specific_common_supertype(self, others):
        if any(type(o) is not DatasetSpec or o._dataset_shape != self._dataset_shape
               for o in others):
            return None
        spec = _spec_supertype(self._element_spec, [o._element_spec for o in others])
        return None if spec is None else DatasetSpec(spec, self._dataset_shape)

    def placeholder_value(self, placeholder_context):
        if getattr(placeholder_context, "unnest_only", False):
            return self  # the signature's view (TF's TypeSpec)
        variant = TensorSpec(TensorShape([]), as_dtype("variant")).placeholder_value(
            placeholder_context)
        structure, specs, inner = _element_parts(self._element_spec)
        core = _core.DatasetCore.from_variant_specs(variant, specs)
        return _VariantDataset(core, structure=structure, inner=inner)

    def to_tensors(self, value):
        return [value._core.variant_tensor]

    def flatten(self):
        return [TensorSpec(TensorShape([]), as_dtype("variant"))]

    def cast(self, value, cast_context):
        return value

    def __repr__(self):
        return "DatasetSpec(%r, %r)" % (self._element_spec, self._dataset_shape)


_WindowDataset = _dataset_class("_WindowDataset")


def _check_predicate(traced):
    spec = traced.output_spec()
    if not (isinstance(spec, TensorSpec) and spec.dtype == as_dtype("bool")
            and spec.shape.rank == 0):
        raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                         "tensor, but its return type is %r." % (spec,))


def _tensor_specs(specs):
    return [TensorSpec(TensorShape([]), as_dtype("variant")) if isinstance(s, DatasetSpec) else s
            for s in specs]


def _type_name(spec):
    if isinstance(spec, TensorSpec):
        return "Tensor"
    return type(spec).__name__


def _flatten_values(value):
    """The components of a structure of tensor-like values, each converted to a tensor."""
    leaves, structure = _nest.flatten_values(value)
    return [_to_tensor(v) for v in leaves], structure


_END_OF_SEQUENCE = ("{{function_node __wrapped__IteratorGetNext_output_types_%d_device_/job:"
                    "localhost/replica:0/task:0/device:CPU:0}} End of sequence "
                    "[Op:IteratorGetNext] name: ")


class OwnedIterator:
    """The iterator of a dataset (TF's OwnedIterator): an iterator resource, made eagerly by
    AnonymousIteratorV3 and MakeIterator, read eagerly or by a tf.function that captures it or
    takes it as an argument (an IteratorSpec), so both read the same position. Made while a
    graph is built (iter(ds) in a tf.function), the resource and each next() are graph ops."""

    def __init__(self, dataset, _handle=None, _element=None):
        if _element is None:
            _element = (dataset.element_spec, dataset._structure, dataset._core.specs(),
                        dataset._inner)
        self._element_spec, self._structure, self._specs, self._inner = _element
        self._handle = dataset._core.graph_iterator() if _handle is None else _handle

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def _type_spec(self):
        return IteratorSpec(self._element_spec)

    def __tf_tracing_type__(self, context):
        return self._type_spec

    def __iter__(self):
        return self

    def _next_flat(self):
        """The next element's tensors, or None at the end (eagerly); in a graph an
        IteratorGetNext, which raises OutOfRangeError when it runs past the end."""
        if not _core.executing_eagerly():
            return _core.DatasetCore.iterator_get_next(self._handle, self._specs)
        return _core.DatasetCore.eager_iterator_next(self._handle)

    def _element(self, flat):
        return _nest.pack(self._structure, _components(flat, self._inner))

    def __next__(self):
        flat = self._next_flat()
        if flat is None:
            raise StopIteration
        return self._element(flat)

    def get_next(self):
        flat = self._next_flat()
        if flat is None:
            raise _errors.OutOfRangeError(None, None, _END_OF_SEQUENCE % len(self._specs))
        return self._element(flat)

    def get_next_as_optional(self):
        """tf.experimental.Optional of the next element (IteratorGetNextAsOptional)."""
        return Optional(_core.DatasetCore.iterator_get_next_as_optional(self._handle, self._specs),
                        (self._element_spec, self._structure, self._specs, self._inner))


class Optional:
    """tf.experimental.Optional: an element or none, held by a variant tensor."""

    def __init__(self, variant, element):
        self._variant = variant
        self._element_spec, self._structure, self._specs, self._inner = element

    element_spec = property(lambda self: self._element_spec)

    def has_value(self, name=None):
        return _core.DatasetCore.optional_has_value(self._variant)

    def get_value(self, name=None):
        flat = _core.DatasetCore.optional_get_value(self._variant, self._specs)
        return _nest.pack(self._structure, _components(flat, self._inner))


_GraphIterator = OwnedIterator  # iter(ds) while a graph is built: the same class, as in TF


def _components(flat, inner):
    """An element's components as an iterator hands them out: tensors, or datasets."""
    if not any(i is not None for i in inner):
        return flat
    return [t if i is None else _VariantDataset(_core.DatasetCore.from_variant(t))
            for t, i in zip(flat, inner)]


def _element_parts(element_spec):
    """(structure, flat (shape, dtype) specs, inner element specs) of an element spec."""
    leaves, structure = _nest.flatten_values(element_spec)
    specs = [(TensorShape([]), as_dtype("variant")) if isinstance(s, DatasetSpec)
             else (s.shape, s.dtype) for s in leaves]
    inner = [s.element_spec if isinstance(s, DatasetSpec) else None for s in leaves]
    return structure, specs, inner


# ---- DatasetSpec / IteratorSpec as trace types (TF's rules for a dataset or iterator argument:
# one trace per element spec, not per object; a subtype is served by a trace of its supertype,
# and reduce_retracing relaxes shapes to the most specific common supertype) ----

def _shape_subtype(a, b):
    return a.is_subtype_of(b)


def _shape_supertype(a, b):
    return a.most_specific_common_supertype([b])


def _leaf_key(s):
    if isinstance(s, DatasetSpec):
        return ("dataset", _spec_key(s._element_spec), tuple(s._dataset_shape.as_list()))
    return (None if s.shape.rank is None else tuple(s.shape.as_list()), s.dtype.name)


def _spec_key(element_spec):
    leaves, structure = _nest.flatten_values(element_spec)
    return (repr(structure), tuple(_leaf_key(s) for s in leaves))


def _leaf_subtype(a, b):
    if isinstance(a, DatasetSpec) or isinstance(b, DatasetSpec):
        return isinstance(a, DatasetSpec) and a.is_subtype_of(b)
    return a.dtype == b.dtype and _shape_subtype(a.shape, b.shape)


def _spec_subtype(a, b):
    la, sa = _nest.flatten_values(a)
    lb, sb = _nest.flatten_values(b)
    return (repr(sa) == repr(sb) and len(la) == len(lb) and
            all(_leaf_subtype(x, y) for x, y in zip(la, lb)))


def _leaf_supertype(a, b):
    if isinstance(a, DatasetSpec) or isinstance(b, DatasetSpec):
        if not (isinstance(a, DatasetSpec) and isinstance(b, DatasetSpec)):
            return None
        return a.most_specific_common_supertype([b])
    if a.dtype != b.dtype:
        return None
    return TensorSpec(_shape_supertype(a.shape, b.shape), a.dtype)


def _spec_supertype(spec, others):
    leaves, structure = _nest.flatten_values(spec)
    for o in others:
        lo, so = _nest.flatten_values(o)
        if repr(so) != repr(structure) or len(lo) != len(leaves):
            return None
        leaves = [_leaf_supertype(x, y) for x, y in zip(leaves, lo)]
        if any(x is None for x in leaves):
            return None
    return _nest.pack(structure, leaves)


class IteratorSpec(_TraceType):
    """tf.data.IteratorSpec: the trace type of an iterator argument, a resource input of the
    graph that the body reads with IteratorGetNext (the caller's iterator advances)."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    element_spec = property(lambda self: self._element_spec)

    def __eq__(self, other):
        return type(other) is IteratorSpec and (_spec_key(self._element_spec) ==
                                                _spec_key(other._element_spec))

    def __hash__(self):
        return hash(("IteratorSpec", _spec_key(self._element_spec)))

    def is_subtype_of(self, other):
        return type(other) is IteratorSpec and _spec_subtype(self._element_spec,
                                                             other._element_spec)

    def most_specific_common_supertype(self, others):
        if any(type(o) is not IteratorSpec for o in others):
            return None
        spec = _spec_supertype(self._element_spec, [o._element_spec for o in others])
        return None if spec is None else IteratorSpec(spec)

    def placeholder_value(self, placeholder_context):
        if getattr(placeholder_context, "unnest_only", False):
            return self  # the signature's view (TF's TypeSpec)
        handle = TensorSpec(TensorShape([]), as_dtype("resource")).placeholder_value(
            placeholder_context)
        structure, specs, inner = _element_parts(self._element_spec)
        return OwnedIterator(None, handle, (self._element_spec, structure, specs, inner))

    def to_tensors(self, value):
        return [value._handle]

    def flatten(self):
        return [TensorSpec(TensorShape([]), as_dtype("resource"))]

    def cast(self, value, cast_context):
        return value

    def __repr__(self):
        return "IteratorSpec(%r,)" % (self._element_spec,)


class NumpyIterator:
    """dataset.as_numpy_iterator(): elements as numpy values (bytes for strings)."""

    def __init__(self, dataset):
        self._iterator = iter(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self._iterator)
        return _nest.map_leaves(element, lambda t: t.numpy())

    def __repr__(self):
        return "NumpyIterator(iterator=%r)" % (self._iterator,)


from ._readers import TFRecordDataset, TextLineDataset  # noqa: E402,F401
from . import experimental  # noqa: E402,F401
