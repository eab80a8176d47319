// complex64 and complex128: their DType values, C++ element types and the dispatch over them.
// The two DType values are TF's enum numbers (DT_COMPLEX64 = 8, DT_COMPLEX128 = 18) named here
// rather than in dtype.h's enum, which every file includes: dtype_name, dtype_size and
// dtype_from_name know them (src/core/dtype.cc). visit_dtype excludes them, so every numeric
// kernel says what it does with complex elements explicitly.
#pragma once

#include <complex>

#include "tfscope/dtype.h"

namespace tfs {

inline constexpr DType kComplex64 = static_cast<DType>(8);
inline constexpr DType kComplex128 = static_cast<DType>(18);

// complex64 or complex128 (not floating, integer or numeric by dtype.h's predicates).
inline bool is_complex(DType dt) {
  return dt == kComplex64 || dt == kComplex128;
}

// The real dtype of a complex one (complex64 -> float32), as TF's DType.real_dtype.
inline DType complex_real_dtype(DType dt) {
  return dt == kComplex128 ? DType::kFloat64 : DType::kFloat32;
}

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

template <>
struct dtype_of<complex64> {
  static constexpr DType value = kComplex64;
};
template <>
struct dtype_of<complex128> {
  static constexpr DType value = kComplex128;
};

// Calls f(C{}) with std::complex<float> or std::complex<double>; throws for any other dtype.
template <typename F>
decltype(auto) visit_complex(DType dt, F&& f) {
  if (dt == kComplex64) return f(complex64{});
  if (dt == kComplex128) return f(complex128{});
  throw_unsupported_dtype(dt, "visit_complex");
}

}  // namespace tfs
