"""tf.summary as TF 2.21 builds it: summary_ops_v2 (the writer, its default and step per thread,
record_if, write) and TensorBoard's scalar, histogram and text (tb_summary hands them to the
tensorboard package's summary_v2, which TF 2.21 needs installed) over the writer ops of
src/data/summary_ops.cc. The event files are TF's: TensorBoard's event_file_loader reads them.
"""
import re as _re
import threading as _threading
import uuid as _uuid

import numpy as _np

from . import _core
from ._gen import convert, name_scope

_INVALID_SCOPE_CHARACTERS = _re.compile(r"[^-_/.A-Za-z0-9]")


def _tf():
    import tfscope
    return tfscope


class _SummaryState(_threading.local):
    def __init__(self):
        super().__init__()
        self.is_recording = None
        self.is_recording_distribution_strategy = True
        self.writer = None
        self.step = None


_state = _SummaryState()


def _constant_value(v):
    """tensor_util.constant_value: a host value as it is, an eager tensor's or a Const's value."""
    if not isinstance(v, _core.Tensor):
        return v
    if not v._is_symbolic:
        return v.numpy()
    return _core.autograph_constant_value(v)


# ---- writers ----

class SummaryWriter:
    """tf.summary.SummaryWriter: the interface."""

    def set_as_default(self, step=None):
        self.as_default(step).__enter__()

    def as_default(self, step=None):
        return _SummaryContextManager(self, step)

    def init(self):
        raise NotImplementedError()

    def flush(self):
        raise NotImplementedError()

    def close(self):
        raise NotImplementedError()


class _SummaryContextManager:
    def __init__(self, writer, step=None):
        self._writer = writer
        self._step = step
        self._old_writer = None
        self._old_step = None

    def __enter__(self):
        self._old_writer = _state.writer
        _state.writer = self._writer
        if self._step is not None:
            self._old_step = _state.step
            _state.step = self._step
        return self._writer

    def __exit__(self, *exc):
        _state.writer.flush()
        _state.writer = self._old_writer
        if self._step is not None:
            _state.step = self._old_step
        return False


class _ResourceSummaryWriter(SummaryWriter):
    """A SummaryWriter over a writer resource (create_file_writer's)."""

    def __init__(self, create_fn, init_op_fn):
        self._resource = create_fn()
        self._init_op = init_op_fn(self._resource)
        self._closed = False

    def _check_open(self):
        if _core.executing_eagerly() and self._closed:
            raise RuntimeError(f"SummaryWriter {self!r} is already closed")

    def set_as_default(self, step=None):
        self._check_open()
        super().set_as_default(step)

    def as_default(self, step=None):
        self._check_open()
        return super().as_default(step)

    def init(self):
        self._check_open()
        return self._init_op

    def flush(self):
        if _core.executing_eagerly() and self._closed:
            return None
        return _core.apply_op("FlushSummaryWriter", [self._resource])

    def close(self):
        if _core.executing_eagerly() and self._closed:
            return None
        try:
            self.flush()
            return _core.apply_op("CloseSummaryWriter", [self._resource])
        finally:
            if _core.executing_eagerly():
                self._closed = True


class _NoopSummaryWriter(SummaryWriter):
    def set_as_default(self, step=None):
        pass

    def as_default(self, step=None):
        return _NullContext()

    def init(self):
        pass

    def flush(self):
        pass

    def close(self):
        pass


class _NullContext:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _check_create_file_writer_args(inside_function, **kwargs):
    for arg_name, arg in kwargs.items():
        if isinstance(arg, _core.Tensor) and arg._is_symbolic:
            if inside_function:
                raise ValueError(
                    f"Invalid graph Tensor argument '{arg_name}={arg}' to "
                    "create_file_writer() inside an @tf.function. The create call will "
                    "be lifted into the outer eager execution context, so it cannot "
                    "consume graph tensors defined inside the function body.")
            raise ValueError(f"Invalid graph Tensor argument '{arg_name}={arg}' to eagerly "
                             "executed create_file_writer().")


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """summary_ops_v2.create_file_writer_v2: the writer's ops run eagerly (lifted out of a
    tf.function by init_scope), one resource per call."""
    if logdir is None:
        raise ValueError("Argument `logdir` cannot be None")
    tf = _tf()
    inside_function = not _core.executing_eagerly()
    with tf.init_scope():
        _check_create_file_writer_args(inside_function, logdir=logdir, max_queue=max_queue,
                                       flush_millis=flush_millis,
                                       filename_suffix=filename_suffix)
        logdir = convert(str(logdir) if not isinstance(logdir, _core.Tensor) else logdir,
                         tf.string, "logdir")
        max_queue = tf.constant(10) if max_queue is None else max_queue
        flush_millis = tf.constant(2 * 60 * 1000) if flush_millis is None else flush_millis
        filename_suffix = tf.constant(".v2") if filename_suffix is None else filename_suffix

        def create_fn():
            # context.anonymous_name(): eagerly every writer is its own resource.
            shared = _uuid.uuid4().hex
            return _core.apply_op("SummaryWriter", [], {"shared_name": shared}, name)

        def init_op_fn(resource):
            return _core.apply_op("CreateSummaryFileWriter",
                                  [resource, logdir, max_queue, flush_millis, filename_suffix])

        return _ResourceSummaryWriter(create_fn, init_op_fn)


def create_noop_writer():
    return _NoopSummaryWriter()


def flush(writer=None, name=None):
    if writer is None:
        writer = _state.writer
        if writer is None:
            return _core.apply_op("NoOp", [])
    if isinstance(writer, SummaryWriter):
        return writer.flush()
    raise ValueError("Invalid argument to flush(): %r" % (writer,))


# ---- recording state ----

class _RecordIf:
    def __init__(self, condition):
        self._condition = condition
        self._old = None

    def __enter__(self):
        self._old = _state.is_recording
        _state.is_recording = self._condition

    def __exit__(self, *exc):
        _state.is_recording = self._old
        return False


def record_if(condition):
    return _RecordIf(condition)


def _should_record():
    """(the predicate tensor, its value when known at trace time or None). TF folds the
    LogicalAnd of two constants when smart_cond asks (try_evaluate_constant); this knows it
    from the operands."""
    tf = _tf()
    if _state.writer is None:
        return tf.constant(False), False
    if not callable(_state.is_recording):
        static = _constant_value(_state.is_recording)
        if static is not None and not static:
            return tf.constant(False), False

    def resolve(x):
        return x() if callable(x) else x

    cond_distributed = resolve(_state.is_recording_distribution_strategy)
    cond = resolve(_state.is_recording)
    if cond is None:
        cond = True
    known = [_constant_value(c) for c in (cond_distributed, cond)]
    static = None if any(k is None for k in known) else bool(known[0]) and bool(known[1])
    return tf.math.logical_and(cond_distributed, cond), static


def should_record_summaries():
    return _should_record()[0]


def has_default_writer():
    return _state.writer is not None


def get_step():
    return _state.step


def set_step(step):
    _state.step = step


def _choose_step(step):
    tf = _tf()
    step = convert(step, tf.int64, "Const")
    if step.shape.num_elements() != 1:
        raise ValueError("Argument `step` must be a scalar. "
                         f"Received step with shape {step.shape}.")
    return step


def _smart_cond(pred, static, true_fn, false_fn, name):
    """smart_cond: the branch itself when the predicate's value is known at trace time."""
    if static is None:
        static = _constant_value(pred)
    if static is not None:
        return true_fn() if bool(static) else false_fn()
    return _tf().cond(pred, true_fn, false_fn, name=name)


def _serialize_metadata(plugin_name, description=None):
    """SummaryMetadata{plugin_data{plugin_name}, summary_description} as protobuf bytes (the
    plugins' content, version 0, serializes to nothing)."""
    def field(number, payload):
        return bytes([number << 3 | 2]) + _varint(len(payload)) + payload

    out = field(1, field(1, plugin_name.encode()))
    if description:
        out += field(3, description.encode())
    return out


def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def write(tag, tensor, step=None, metadata=None, name=None):
    tf = _tf()
    if step is not None:
        _choose_step(step)
    with name_scope(name, "write_summary") as scope:
        if _state.writer is None:
            return tf.constant(False)
        if step is None:
            step = get_step()
        if metadata is None:
            serialized = b""
        elif hasattr(metadata, "SerializeToString"):
            serialized = metadata.SerializeToString()
        else:
            serialized = metadata

        def record():
            if step is None:
                raise ValueError("No step set. Please specify one either through the "
                                 "`step` argument or through "
                                 "tf.summary.experimental.set_step()")
            summary_tensor = tensor() if callable(tensor) else tf.identity(tensor)
            writer = _state.writer._resource
            if scope:
                # TF's wrapper converts (captures) the writer first among its inputs.
                _core.enter_exact_scope(scope[:-1])
                try:
                    writer = _core.capture_named(writer, "writer")
                finally:
                    _core.exit_name_scope()
            _core.apply_op("WriteSummary",
                           [writer, step, summary_tensor, tag, _np.array(serialized)], None,
                           scope or None)
            done = tf.constant(True)
            if scope:
                _core.add_control_input(done, scope[:-1])  # control_dependencies([write])
            return done

        def nothing():
            return tf.constant(False)

        pred, static = _should_record()
        return _smart_cond(pred, static, record, nothing, "summary_cond")


class _SummaryScope:
    """summary_scope(name, default_name): yields (tag, scope); the tag keeps the name as given
    under the current name scope, the scope drops the characters a scope name cannot hold."""

    def __init__(self, name, default_name):
        name = name or default_name
        current = _core.get_name_scope()
        self.tag = current + "/" + name if current else name
        self._name = _INVALID_SCOPE_CHARACTERS.sub("", name) or None
        self._default = default_name
        self._cm = None

    def __enter__(self):
        self._cm = name_scope(self._name, self._default)
        return self.tag, self._cm.__enter__()

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)


def summary_scope(name, default_name="summary", values=None):
    return _SummaryScope(name, default_name)


# ---- TensorBoard's summaries ----

DEFAULT_BUCKET_COUNT = 30


def scalar(name, data, step=None, description=None):
    tf = _tf()
    metadata = _serialize_metadata("scalars", description)
    with summary_scope(name, "scalar_summary") as (tag, _):
        tf.debugging.assert_scalar(data)
        return write(tag=tag, tensor=tf.cast(data, tf.float32), step=step, metadata=metadata)


def text(name, data, step=None, description=None):
    tf = _tf()
    metadata = _serialize_metadata("text", description)
    with summary_scope(name, "text_summary") as (tag, _):
        tf.debugging.assert_type(data, tf.string)
        return write(tag=tag, tensor=data, step=step, metadata=metadata)


def histogram(name, data, step=None, buckets=None, description=None):
    tf = _tf()
    data = tf.stop_gradient(data)
    metadata = _serialize_metadata("histograms", description)
    with summary_scope(name, "histogram_summary") as (tag, _):
        return write(tag=tag, tensor=lambda: _buckets(data, buckets), step=step,
                     metadata=metadata)


def _buckets(data, bucket_count=None):
    """TensorBoard's histogram buckets: [k, 3] float64 rows of (left edge, right edge, count)."""
    tf = _tf()
    if bucket_count is None:
        bucket_count = DEFAULT_BUCKET_COUNT
    with name_scope(None, "buckets"):
        tf.debugging.assert_scalar(bucket_count)
        tf.debugging.assert_type(bucket_count, tf.int32)
        bucket_count = tf.math.maximum(0, bucket_count)
        data = tf.reshape(data, shape=[-1])
        data = tf.cast(data, tf.float64)
        data_size = tf.size(input=data)
        is_empty = tf.logical_or(tf.equal(data_size, 0), tf.less_equal(bucket_count, 0))

        def when_empty():
            return tf.zeros((bucket_count, 3), dtype=tf.float64)

        def when_nonempty():
            min_ = tf.reduce_min(input_tensor=data)
            max_ = tf.reduce_max(input_tensor=data)
            range_ = max_ - min_
            has_single_value = tf.equal(range_, 0)

            def when_multiple_values():
                bucket_width = range_ / tf.cast(bucket_count, tf.float64)
                offsets = data - min_
                bucket_indices = tf.cast(tf.floor(offsets / bucket_width), dtype=tf.int32)
                clamped_indices = tf.minimum(bucket_indices, bucket_count - 1)
                one_hots = tf.one_hot(clamped_indices, depth=bucket_count, dtype=tf.float64)
                bucket_counts = tf.cast(tf.reduce_sum(input_tensor=one_hots, axis=0),
                                        dtype=tf.float64)
                edges = tf.linspace(min_, max_, bucket_count + 1)
                edges = tf.concat([edges[:-1], [max_]], 0)
                left_edges = edges[:-1]
                right_edges = edges[1:]
                return tf.transpose(a=tf.stack([left_edges, right_edges, bucket_counts]))

            def when_single_value():
                edges = tf.fill([bucket_count], max_)
                zeroes = tf.fill([bucket_count], 0)
                bucket_counts = tf.cast(tf.concat([zeroes[:-1], [data_size]], 0)[:bucket_count],
                                        dtype=tf.float64)
                return tf.transpose(a=tf.stack([edges, edges, bucket_counts]))

            return tf.cond(has_single_value, when_single_value, when_multiple_values)

        return tf.cond(is_empty, when_empty, when_nonempty)


class experimental:  # noqa: N801  (tf.summary.experimental)
    get_step = staticmethod(get_step)
    set_step = staticmethod(set_step)
    summary_scope = staticmethod(summary_scope)
