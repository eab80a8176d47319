// The error types tfscope raises. They mirror the Python exception classes TF raises for the same
// situation, so that the Python API can map each to the same class and the message text can be
// TF's own.
#pragma once

#include <stdexcept>
#include <string>

namespace tfs {

enum class ErrorKind {
  kTypeError,
  kValueError,
  kInvalidArgument,            // tf.errors.InvalidArgumentError
  kOperatorNotAllowedInGraph,  // tf.errors.OperatorNotAllowedInGraphError (a TypeError)
  kNotImplemented,             // NotImplementedError
  kNotFound,                   // tf.errors.NotFoundError
  kFailedPrecondition,         // tf.errors.FailedPreconditionError
  kUnimplemented,              // tf.errors.UnimplementedError
  kInternal,                   // tf.errors.InternalError
  kAborted,                    // tf.errors.AbortedError
  kResourceExhausted,          // tf.errors.ResourceExhaustedError (no memory, disk full)
  kPermissionDenied,           // tf.errors.PermissionDeniedError
  kAlreadyExists,              // tf.errors.AlreadyExistsError
  kUnknown,                    // tf.errors.UnknownError (an I/O error without a better class)
  kIO,                         // OSError
  kOutOfRange,                 // tf.errors.OutOfRangeError (a sequence's end, a file too large)
  kDataLoss,                   // tf.errors.DataLossError (a corrupt record)
  kInaccessibleTensor,         // tf.errors.InaccessibleTensorError (a ValueError)
  kRecursion,                  // RecursionError
  kRuntimeError,               // RuntimeError (a used-up GradientTape)
  kLookupError,                // LookupError (an op with no registered gradient)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& msg) : std::runtime_error(msg), kind_(kind) {}
  ErrorKind kind() const { return kind_; }
  // The Python class name TF uses ("TypeError", "InvalidArgumentError", ...).
  const char* python_type() const;

 private:
  ErrorKind kind_;
};

// The kinds a kernel reports as its failed status (TF's OpError classes), which TF's runtime
// puts in context: the op's wrapper eagerly, the node and function in a graph.
inline bool is_kernel_status(ErrorKind kind) {
  return kind == ErrorKind::kInvalidArgument || kind == ErrorKind::kInternal ||
         kind == ErrorKind::kAborted || kind == ErrorKind::kOutOfRange ||
         kind == ErrorKind::kDataLoss || kind == ErrorKind::kResourceExhausted;
}

[[noreturn]] inline void throw_error(ErrorKind kind, const std::string& msg) { throw Error(kind, msg); }
[[noreturn]] inline void type_error(const std::string& msg) { throw Error(ErrorKind::kTypeError, msg); }
[[noreturn]] inline void value_error(const std::string& msg) { throw Error(ErrorKind::kValueError, msg); }
[[noreturn]] inline void invalid_argument(const std::string& msg) {
  throw Error(ErrorKind::kInvalidArgument, msg);
}

}  // namespace tfs
