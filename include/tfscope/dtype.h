// DType: TensorFlow's DataType enum numbers, so that graphs and checkpoints we write carry the
// same values TF writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tfs {

enum class DType : int32_t {
  kInvalid = 0,
  kFloat32 = 1,
  kFloat64 = 2,
  kInt32 = 3,
  kUInt8 = 4,
  kInt16 = 5,
  kInt8 = 6,
  kString = 7,
  kInt64 = 9,
  kBool = 10,
  kResource = 20,
  kVariant = 21,  // an opaque value (a TensorList)
};

// "float32", "int32", ...: numpy's and TF's short names.
std::string_view dtype_name(DType dt);
// "tf.float32": how TF prints a DType object.
std::string dtype_repr(DType dt);
// Element size in bytes; 0 for string, resource and variant.
size_t dtype_size(DType dt);
// The DType of a short name ("float32"); kInvalid if unknown.
DType dtype_from_name(std::string_view name);

bool is_floating(DType dt);
bool is_integer(DType dt);  // signed or unsigned, not bool
bool is_numeric(DType dt);  // floating or integer

// C++ type <-> DType.
template <typename T>
struct dtype_of;
template <> struct dtype_of<float> { static constexpr DType value = DType::kFloat32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::kFloat64; };
template <> struct dtype_of<int32_t> { static constexpr DType value = DType::kInt32; };
template <> struct dtype_of<uint8_t> { static constexpr DType value = DType::kUInt8; };
template <> struct dtype_of<int16_t> { static constexpr DType value = DType::kInt16; };
template <> struct dtype_of<int8_t> { static constexpr DType value = DType::kInt8; };
template <> struct dtype_of<int64_t> { static constexpr DType value = DType::kInt64; };
template <> struct dtype_of<bool> { static constexpr DType value = DType::kBool; };
template <typename T>
inline constexpr DType dtype_v = dtype_of<T>::value;

// Calls f(T{}) with the C++ type of a numeric or bool dtype; throws for string/resource/variant.
template <typename F>
decltype(auto) visit_dtype(DType dt, F&& f);

}  // namespace tfs

#include "tfscope/detail/dtype_visit.h"

namespace tfs {
// TF's DataTypeString: "float", "double", "int32", ... (C++ runtime error texts use these).
std::string_view dtype_tf_string(DType dt);
// The enum name as printed in NodeDef summaries: "DT_FLOAT".
std::string dtype_enum_name(DType dt);
}  // namespace tfs
