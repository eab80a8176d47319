"""The exception classes TF raises, so ``except tf.errors.InvalidArgumentError`` works, and the
names tf.errors exports (its classes and status codes)."""
import inspect as _inspect

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """TF's base class of the errors an op raises: (node_def, op, message, error_code, *args),
    args holding at most a payload dict; str() is the message and ``args`` is empty, as TF's.
    The engine raises them as TF's runtime does, with node_def and op None."""

    def __init__(self, node_def, op, message, error_code, *args):
        super().__init__()
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code
        self._experimental_payloads = args[0] if args else {}

    @property
    def message(self):
        return self._message

    @property
    def node_def(self):
        return self._node_def

    @property
    def op(self):
        return self._op

    @property
    def error_code(self):
        return self._error_code

    @property
    def experimental_payloads(self):
        return self._experimental_payloads

    def __str__(self):
        return self._message

    def __reduce__(self):
        # The arguments the class's own __init__ names (a subclass has no error_code), as TF's.
        names = list(_inspect.signature(type(self).__init__).parameters)[1:]
        return type(self), tuple(getattr(self, n) for n in names
                                 if n not in ("self", "args"))


def _op_error(name, code):
    def __init__(self, node_def, op, message, *args):
        OpError.__init__(self, node_def, op, message, code, *args)

    __init__.__qualname__ = name + ".__init__"
    return type(name, (OpError,), {"__init__": __init__, "__module__": __name__,
                                   "__doc__": "TF's %s: (node_def, op, message, *args)." % name})


CancelledError = _op_error("CancelledError", CANCELLED)
UnknownError = _op_error("UnknownError", UNKNOWN)
InvalidArgumentError = _op_error("InvalidArgumentError", INVALID_ARGUMENT)
DeadlineExceededError = _op_error("DeadlineExceededError", DEADLINE_EXCEEDED)
NotFoundError = _op_error("NotFoundError", NOT_FOUND)
AlreadyExistsError = _op_error("AlreadyExistsError", ALREADY_EXISTS)
PermissionDeniedError = _op_error("PermissionDeniedError", PERMISSION_DENIED)
ResourceExhaustedError = _op_error("ResourceExhaustedError", RESOURCE_EXHAUSTED)
FailedPreconditionError = _op_error("FailedPreconditionError", FAILED_PRECONDITION)
AbortedError = _op_error("AbortedError", ABORTED)
OutOfRangeError = _op_error("OutOfRangeError", OUT_OF_RANGE)
UnimplementedError = _op_error("UnimplementedError", UNIMPLEMENTED)
InternalError = _op_error("InternalError", INTERNAL)
UnavailableError = _op_error("UnavailableError", UNAVAILABLE)
DataLossError = _op_error("DataLossError", DATA_LOSS)
UnauthenticatedError = _op_error("UnauthenticatedError", UNAUTHENTICATED)


class OperatorNotAllowedInGraphError(TypeError):
    pass


class _InaccessibleTensorError(ValueError):
    """A tensor of another graph used here (TF raises it from errors_impl; tf.errors does not
    export it, so neither does this module)."""


_InaccessibleTensorError.__name__ = _InaccessibleTensorError.__qualname__ = "InaccessibleTensorError"


# The classes the C++ error translator raises by name (python/src/module.cc builds an OpError
# subclass with node_def and op None).
_BY_NAME = {
    "OpError": OpError,
    "TypeError": TypeError,
    "ValueError": ValueError,
    "NotImplementedError": NotImplementedError,
    "OSError": OSError,
    "InvalidArgumentError": InvalidArgumentError,
    "NotFoundError": NotFoundError,
    "FailedPreconditionError": FailedPreconditionError,
    "UnimplementedError": UnimplementedError,
    "InternalError": InternalError,
    "AbortedError": AbortedError,
    "OutOfRangeError": OutOfRangeError,
    "DataLossError": DataLossError,
    "ResourceExhaustedError": ResourceExhaustedError,
    "PermissionDeniedError": PermissionDeniedError,
    "AlreadyExistsError": AlreadyExistsError,
    "UnknownError": UnknownError,
    "OperatorNotAllowedInGraphError": OperatorNotAllowedInGraphError,
    "InaccessibleTensorError": _InaccessibleTensorError,
    "RecursionError": RecursionError,
    "RuntimeError": RuntimeError,
    "LookupError": LookupError,
}
