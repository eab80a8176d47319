"""tf.IndexedSlices, the sparse gradient of a gather, and the sparse variable ops it feeds.

A gradient through tf.gather on axis 0 (GatherV2, or ResourceGather for a variable) is the rows
the gather read: values, their row indices and the dense shape (include/tfscope/indexed_slices.h
builds it; the tape hands it here as a (values, indices, dense_shape) tuple). Where a tensor is
needed it converts as TF's _indexed_slices_to_tensor does: UnsortedSegmentSum(values, indices,
dense_shape[0]).
"""
from . import _core


class IndexedSlices:
    """tf.IndexedSlices: `values` are the rows at `indices` of a tensor of shape `dense_shape`."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    device = property(lambda self: self._values.device)
    name = property(lambda self: self._values.name)
    op = property(lambda self: self._values.op)
    graph = property(lambda self: self._values.graph)

    @property
    def shape(self):
        from . import TensorShape
        if self._dense_shape is None:
            return TensorShape(None)
        value = _core.autograph_constant_value(self._dense_shape)
        if value is None:
            return TensorShape(None)
        return TensorShape([int(d) for d in value])

    def __str__(self):
        shape = "" if self._dense_shape is None else ", dense_shape=%s" % (self._dense_shape,)
        return "IndexedSlices(indices=%s, values=%s%s)" % (self._indices, self._values, shape)

    def __neg__(self):
        from . import negative
        return IndexedSlices(negative(self._values), self._indices, self._dense_shape)

    def _tfscope_dense(self):
        """ops.convert_to_tensor(self): the rows summed into a dense tensor."""
        if self._dense_shape is None:
            raise ValueError(
                "Tensor conversion requested for IndexedSlices for argument `value` without "
                "dense_shape: %s" % (self,))
        return _core.indexed_slices_to_tensor(self._values, self._indices, self._dense_shape)


def _from_tape(g):
    return IndexedSlices(*g) if isinstance(g, tuple) else g


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """tf.math.unsorted_segment_sum."""
    return _core.apply_op("UnsortedSegmentSum", [data, segment_ids, num_segments], None, name)


def _sparse_delta(method, sparse_delta):
    if not isinstance(sparse_delta, IndexedSlices):
        raise TypeError("Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: "
                        f"{sparse_delta}")
    return sparse_delta


def install(variable_class):
    """The Variable methods of sparse reads and updates (ResourceVariable's)."""

    def sparse_read(self, indices, name=None):
        return _core.resource_gather(self, indices, "Gather" if name is None else name)

    def scatter(op):
        def method(self, sparse_delta, use_locking=False, name=None):
            d = _sparse_delta(op, sparse_delta)
            _core.resource_scatter(op, self, d.indices, d.values, op if name is None else name)
            return self
        return method

    variable_class.sparse_read = sparse_read
    variable_class.scatter_add = scatter("ResourceScatterAdd")
    variable_class.scatter_sub = scatter("ResourceScatterSub")
    variable_class.scatter_update = scatter("ResourceScatterUpdate")
