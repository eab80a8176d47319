"""tf.types.experimental: TF's tracing protocol. A class whose instances define
``__tf_tracing_type__(context)`` returns a TraceType; tf.function keys its cache on it (equality,
hashing, is_subtype_of, most_specific_common_supertype), traces the body with its
``placeholder_value``, feeds a call the tensors of ``to_tensors`` and casts an argument with
``cast`` (python/src/trace_type_bindings.cc hands each of these to the engine). A new kind of
argument is one TraceType subclass; inside ``placeholder_value`` a TensorSpec's
``placeholder_value(placeholder_context)`` makes one of the trace's graph inputs."""
import abc
import atexit
from typing import Protocol, runtime_checkable

__all__ = ["CastContext", "PlaceholderContext", "SupportsTracingProtocol", "TraceType",
           "TracingContext"]


class TraceType(metaclass=abc.ABCMeta):
    """The type tf.function traces an argument as (TF's tf.types.experimental.TraceType)."""

    @abc.abstractmethod
    def is_subtype_of(self, other):
        """Whether a function traced for `other` serves an argument of this type."""

    @abc.abstractmethod
    def most_specific_common_supertype(self, others):
        """The most specific type every one of `self` and `others` is a subtype of, or None."""

    @abc.abstractmethod
    def placeholder_value(self, placeholder_context):
        """The value the function body is traced with."""

    def to_tensors(self, value):
        """The tensors a call feeds for `value`, as many for every value of this type."""
        del value
        return []

    def from_tensors(self, tensors):
        """A value of this type made from as many tensors as to_tensors gives."""
        del tensors
        return self.placeholder_value(PlaceholderContext())

    def flatten(self):
        """The TensorSpecs of the tensors to_tensors gives."""
        return []

    def cast(self, value, cast_context):
        """`value` as a value of this type (an input_signature, a concrete function's call)."""
        del cast_context
        assert value == self.placeholder_value(PlaceholderContext()), (
            f"Can not cast {value!r} to type {self!r}")
        return value

    @abc.abstractmethod
    def __hash__(self):
        pass

    @abc.abstractmethod
    def __eq__(self, other):
        pass


class TracingContext(metaclass=abc.ABCMeta):
    """What __tf_tracing_type__ is given (reserved for future use, as in TF)."""


class _TracingContext(TracingContext):
    pass


class PlaceholderContext:
    """What placeholder_value is given; while a function traces, it makes the graph's inputs."""


class CastContext:
    """What cast is given (reserved for future use, as in TF)."""


@runtime_checkable
class SupportsTracingProtocol(Protocol):
    """A class that says how tf.function traces its instances."""

    @abc.abstractmethod
    def __tf_tracing_type__(self, context):
        pass


class _Experimental:
    CastContext = CastContext
    PlaceholderContext = PlaceholderContext
    SupportsTracingProtocol = SupportsTracingProtocol
    TraceType = TraceType
    TracingContext = TracingContext


class types:  # noqa: N801  (tf.types)
    experimental = _Experimental


def _release_at_exit():
    from . import _core
    _core._release_trace_types()


atexit.register(_release_at_exit)
