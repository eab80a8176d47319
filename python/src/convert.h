// Conversions between Python objects and tfscope values, shared by the binding files.
#pragma once

#include <nanobind/nanobind.h>

#include <string_view>
#include <type_traits>
#include <utility>

#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/tensor.h"
#include "tfscope/value.h"
#include "tfscope/variable.h"

namespace nb = nanobind;

namespace tfpy {
using namespace nb::literals;

// Defines a module function whose arguments all accept None (nanobind rejects None for an
// argument unless it is annotated; the Python API passes None for "not given").
namespace detail {
template <typename T>
struct Arity : Arity<decltype(&T::operator())> {};
template <typename R, typename... A>
struct Arity<R (*)(A...)> : std::integral_constant<size_t, sizeof...(A)> {};
template <typename C, typename R, typename... A>
struct Arity<R (C::*)(A...) const> : std::integral_constant<size_t, sizeof...(A)> {};
inline constexpr const char* kArgNames[] = {"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"};
template <typename F, size_t... I>
void def_any(nb::module_& m, const char* name, F&& f, std::index_sequence<I...>) {
  m.def(name, std::forward<F>(f), nb::arg(kArgNames[I]).none()...);
}
}  // namespace detail
template <typename F>
void def_any(nb::module_& m, const char* name, F&& f) {
  using D = std::decay_t<F>;
  constexpr size_t n = detail::Arity<D>::value;
  detail::def_any(m, name, std::forward<F>(f), std::make_index_sequence<n>{});
}

// Python classes and helpers the package registers at import (tfscope/_registry.py).
struct Registry {
  nb::object dtype_factory;      // int enum -> tfscope.DType
  nb::object shape_factory;      // list of int|None or None -> TensorShape
  nb::object tensor_spec_class;  // tfscope.TensorSpec
  nb::object spec_factory;       // (dims|None, dtype_enum, name|None) -> TensorSpec
  nb::object exceptions;         // dict: python_type name -> class
  nb::object namedtuple_factory; // (type_name, fields, values) -> namedtuple instance
  nb::object variable_class;     // tfscope.Variable (Python wrapper)
  nb::object numpy;              // the numpy module
};
Registry& registry();

// Text from a model file or an error as a Python str: bytes that are not UTF-8 (a damaged file's
// names) become \xNN escapes instead of a UnicodeDecodeError.
nb::str safe_str(std::string_view text);
// PyErr_SetObject(type, safe_str(message)).
void set_error(PyObject* type, const char* message);

// Python value -> Value for tracing (TF's trace_type_builder order of checks).
tfs::Value to_value(nb::handle h);

// repr() of the Python class of a namedtuple the conversions have seen, "" when unknown.
std::string namedtuple_class_repr(const std::string& name, const std::vector<std::string>& fields);
// Value -> Python (tensors wrapped, nests rebuilt, objects returned as themselves).
nb::object from_value(const tfs::Value& v);
// Anything tensor-like -> Tensor (Tensor, Variable, numpy array/scalar, Python scalar or nest).
tfs::Tensor to_tensor(nb::handle h, tfs::DType dtype = tfs::DType::kInvalid);
// A tfscope TensorShape (what to_tensor converts as TF converts a TensorShape).
bool is_tensor_shape(nb::handle h);
// Whether a host value is a Python complex or a list/tuple nest holding one.
bool holds_complex(nb::handle h);
tfs::Tensor numpy_to_tensor(nb::handle arr);
// An op operand as the op wrappers take it: a Tensor or Variable stays one (a variable is read in
// the wrapper's name scope), a numpy value becomes a tensor, a host value stays a host value.
tfs::Value operand(nb::handle h);
// An operand TF's wrapper converts with the op's dtype once known (a generated op wrapper, a
// binary operator): as operand(), but a numpy value stays a host value (tfs::HostArray).
tfs::Value converted_operand(nb::handle h);

// The end of an eager kernel error for a generated op wrapper called with these Python operands:
// a list or tuple sends TF's wrapper down eager_fallback, whose errors carry no " name: ".
template <typename... H>
std::string eager_error_name(H... operands) {
  bool host_list = ((PyList_Check(operands.ptr()) || PyTuple_Check(operands.ptr())) || ...);
  return host_list ? std::string() : tfs::EagerErrorName::current();
}
nb::object tensor_to_numpy(const tfs::Tensor& t);
nb::object py_dtype(tfs::DType d);
nb::object py_shape(const tfs::PartialShape& s);
tfs::DType dtype_arg(nb::handle h);  // tfscope.DType, numpy dtype, str, or None
tfs::PartialShape shape_arg(nb::handle h);

}  // namespace tfpy
