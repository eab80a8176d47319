#include "tfscope/dtype.h"

#include <cctype>

#include "tfscope/complex.h"
#include "tfscope/errors.h"

namespace tfs {

std::string_view dtype_name(DType dt) {
  if (dt == kComplex64) return "complex64";
  if (dt == kComplex128) return "complex128";
  switch (dt) {
    case DType::kFloat32: return "float32";
    case DType::kFloat64: return "float64";
    case DType::kInt32: return "int32";
    case DType::kUInt8: return "uint8";
    case DType::kInt16: return "int16";
    case DType::kInt8: return "int8";
    case DType::kString: return "string";
    case DType::kInt64: return "int64";
    case DType::kBool: return "bool";
    case DType::kResource: return "resource";
    case DType::kVariant: return "variant";
    case DType::kInvalid: break;
  }
  return "invalid";
}

std::string dtype_repr(DType dt) { return "tf." + std::string(dtype_name(dt)); }

size_t dtype_size(DType dt) {
  if (dt == kComplex64) return 8;
  if (dt == kComplex128) return 16;
  switch (dt) {
    case DType::kFloat32: case DType::kInt32: return 4;
    case DType::kFloat64: case DType::kInt64: return 8;
    case DType::kInt16: return 2;
    case DType::kUInt8: case DType::kInt8: case DType::kBool: return 1;
    default: return 0;
  }
}

DType dtype_from_name(std::string_view name) {
  for (DType dt : {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kUInt8, DType::kInt16,
                   DType::kInt8, DType::kString, DType::kInt64, DType::kBool, DType::kResource,
                   DType::kVariant, kComplex64, kComplex128}) {
    if (dtype_name(dt) == name) return dt;
  }
  if (name == "float") return DType::kFloat32;
  if (name == "double") return DType::kFloat64;
  return DType::kInvalid;
}

bool is_floating(DType dt) { return dt == DType::kFloat32 || dt == DType::kFloat64; }
bool is_integer(DType dt) {
  return dt == DType::kInt32 || dt == DType::kInt64 || dt == DType::kInt16 || dt == DType::kInt8 ||
         dt == DType::kUInt8;
}
bool is_numeric(DType dt) { return is_floating(dt) || is_integer(dt); }

void throw_unsupported_dtype(DType dt, const char* what) {
  throw Error(ErrorKind::kInvalidArgument,
              std::string("[core] ") + what + ": unsupported dtype " + std::string(dtype_name(dt)));
}

}  // namespace tfs

namespace tfs {

std::string_view dtype_tf_string(DType dt) {
  if (dt == DType::kFloat32) return "float";
  if (dt == DType::kFloat64) return "double";
  return dtype_name(dt);
}

std::string dtype_enum_name(DType dt) {
  std::string s(dtype_tf_string(dt));
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "DT_" + s;
}

}  // namespace tfs
