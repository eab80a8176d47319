#include "tfscope/errors.h"

namespace tfs {

const char* Error::python_type() const {
  switch (kind_) {
    case ErrorKind::kTypeError: return "TypeError";
    case ErrorKind::kValueError: return "ValueError";
    case ErrorKind::kInvalidArgument: return "InvalidArgumentError";
    case ErrorKind::kOperatorNotAllowedInGraph: return "OperatorNotAllowedInGraphError";
    case ErrorKind::kNotImplemented: return "NotImplementedError";
    case ErrorKind::kNotFound: return "NotFoundError";
    case ErrorKind::kFailedPrecondition: return "FailedPreconditionError";
    case ErrorKind::kUnimplemented: return "UnimplementedError";
    case ErrorKind::kInternal: return "InternalError";
    case ErrorKind::kAborted: return "AbortedError";
    case ErrorKind::kResourceExhausted: return "ResourceExhaustedError";
    case ErrorKind::kPermissionDenied: return "PermissionDeniedError";
    case ErrorKind::kOutOfRange: return "OutOfRangeError";
    case ErrorKind::kAlreadyExists: return "AlreadyExistsError";
    case ErrorKind::kUnknown: return "UnknownError";
    case ErrorKind::kIO: return "OSError";
    case ErrorKind::kDataLoss: return "DataLossError";
    case ErrorKind::kInaccessibleTensor: return "InaccessibleTensorError";
    case ErrorKind::kRecursion: return "RecursionError";
    case ErrorKind::kRuntimeError: return "RuntimeError";
    case ErrorKind::kLookupError: return "LookupError";
  }
  return "Error";
}

}  // namespace tfs
