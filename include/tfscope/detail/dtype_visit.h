#pragma once
#include <stdexcept>

namespace tfs {

[[noreturn]] void throw_unsupported_dtype(DType dt, const char* what);

template <typename F>
decltype(auto) visit_dtype(DType dt, F&& f) {
  switch (dt) {
    case DType::kFloat32: return f(float{});
    case DType::kFloat64: return f(double{});
    case DType::kInt32: return f(int32_t{});
    case DType::kUInt8: return f(uint8_t{});
    case DType::kInt16: return f(int16_t{});
    case DType::kInt8: return f(int8_t{});
    case DType::kInt64: return f(int64_t{});
    case DType::kBool: return f(bool{});
    default: throw_unsupported_dtype(dt, "visit_dtype");
  }
}

}  // namespace tfs
