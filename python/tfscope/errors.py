"""The exception classes TF raises, so ``except tf.errors.InvalidArgumentError`` works."""


class OpError(Exception):
    def __init__(self, message="", *args):
        super().__init__(message)
        self.message = message


class InvalidArgumentError(OpError):
    pass


class NotFoundError(OpError):
    pass


class FailedPreconditionError(OpError):
    pass


class UnimplementedError(OpError):
    pass


class InternalError(OpError):
    pass


class AbortedError(OpError):
    pass


class OutOfRangeError(OpError):
    pass


class DataLossError(OpError):
    pass


class ResourceExhaustedError(OpError):
    pass


class PermissionDeniedError(OpError):
    pass


class AlreadyExistsError(OpError):
    pass


class UnknownError(OpError):
    pass


class OperatorNotAllowedInGraphError(TypeError):
    pass


class InaccessibleTensorError(ValueError):
    pass


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
    "InaccessibleTensorError": InaccessibleTensorError,
    "RecursionError": RecursionError,
    "RuntimeError": RuntimeError,
    "LookupError": LookupError,
}
