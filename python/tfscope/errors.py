"""The exception classes TF raises, so ``except tf.errors.InvalidArgumentError`` works, and the
names tf.errors exports (its classes and status codes)."""

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
    error_code = UNKNOWN

    def __init__(self, *args):
        # TF's (node_def, op, message, ...); the engine raises these with the message alone.
        node_def, op, message = (args[0], args[1], args[2]) if len(args) >= 3 else (
            None, None, args[0] if args else "")
        super().__init__(message)
        self.message = message
        self.node_def = node_def
        self.op = op


class InvalidArgumentError(OpError):
    error_code = INVALID_ARGUMENT


class NotFoundError(OpError):
    error_code = NOT_FOUND


class FailedPreconditionError(OpError):
    error_code = FAILED_PRECONDITION


class UnimplementedError(OpError):
    error_code = UNIMPLEMENTED


class InternalError(OpError):
    error_code = INTERNAL


class AbortedError(OpError):
    error_code = ABORTED


class OutOfRangeError(OpError):
    error_code = OUT_OF_RANGE


class DataLossError(OpError):
    error_code = DATA_LOSS


class ResourceExhaustedError(OpError):
    error_code = RESOURCE_EXHAUSTED


class PermissionDeniedError(OpError):
    error_code = PERMISSION_DENIED


class AlreadyExistsError(OpError):
    error_code = ALREADY_EXISTS


class UnknownError(OpError):
    error_code = UNKNOWN


class CancelledError(OpError):
    error_code = CANCELLED


class DeadlineExceededError(OpError):
    error_code = DEADLINE_EXCEEDED


class UnavailableError(OpError):
    error_code = UNAVAILABLE


class UnauthenticatedError(OpError):
    error_code = UNAUTHENTICATED


class OperatorNotAllowedInGraphError(TypeError):
    pass


class _InaccessibleTensorError(ValueError):
    """A tensor of another graph used here (TF raises it from errors_impl; tf.errors does not
    export it, so neither does this module)."""


_InaccessibleTensorError.__name__ = _InaccessibleTensorError.__qualname__ = "InaccessibleTensorError"


_BY_NAME = {
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
