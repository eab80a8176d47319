// Helpers for the op tests: build eager tensors, run one op eagerly, run one op's shape
// function on partial shapes (with optional constant inputs), and check error kinds and texts.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tfscope/op_def.h"
#include "tfscope/ops.h"

namespace tfs::testing {

inline Tensor i32(const std::vector<int32_t>& v, const Shape& s) {
  return Tensor::from_vector(v, s);
}
inline Tensor i32(const std::vector<int32_t>& v) {
  return Tensor::from_vector(v);
}
inline Tensor i64(const std::vector<int64_t>& v) {
  return Tensor::from_vector(v);
}
inline Tensor f32(const std::vector<float>& v, const Shape& s) {
  return Tensor::from_vector(v, s);
}
inline Tensor f32(const std::vector<float>& v) {
  return Tensor::from_vector(v);
}
inline Tensor f64(const std::vector<double>& v) {
  return Tensor::from_vector(v);
}
inline Tensor si32(int32_t v) {
  return Tensor::scalar(v);
}

// One op, run eagerly through tfs::execute (the dispatch every front end uses).
inline std::vector<Tensor> run(const std::string& op, std::vector<Tensor> inputs,
                               AttrMap attrs = {}) {
  return execute(op, std::move(inputs), std::move(attrs));
}
inline Tensor run1(const std::string& op, std::vector<Tensor> inputs, AttrMap attrs = {}) {
  return execute1(op, std::move(inputs), std::move(attrs));
}

// An input to a shape function: a partial shape and dtype, with a constant value when known.
struct In {
  PartialShape shape;
  DType dtype = DType::kFloat32;
  std::optional<Tensor> value;
  In(PartialShape s, DType d = DType::kFloat32) : shape(std::move(s)), dtype(d) {}  // NOLINT
  In(const Tensor& v) : shape(v.shape()), dtype(v.dtype()), value(v) {}             // NOLINT
};

// Output shapes of `op`'s shape function. Without a node summary, a shape-function failure
// throws the bare message (InvalidArgument), so tests can compare TF's text exactly.
inline std::vector<PartialShape> infer(const std::string& op, const std::vector<In>& ins,
                                       AttrMap attrs = {}) {
  const OpDef& def = OpRegistry::global().get(op);
  std::vector<DType> dtypes;
  for (auto& i : ins) dtypes.push_back(i.dtype);
  InferenceContext c;
  c.output_dtypes = resolve_output_dtypes(def, dtypes, attrs, /*eager=*/false);
  c.attrs = &attrs;
  for (auto& i : ins) {
    c.input_dtypes.push_back(i.dtype);
    c.input_shapes.push_back(i.shape);
    c.input_values.push_back(i.value ? &*i.value : nullptr);
  }
  infer_shapes(def, c);
  return c.output_shapes;
}
inline PartialShape infer1(const std::string& op, const std::vector<In>& ins, AttrMap attrs = {}) {
  return infer(op, ins, std::move(attrs)).at(0);
}

// The message of the tfs::Error `f` throws, after checking its kind.
inline std::string error_of(const std::function<void()>& f, ErrorKind kind) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error thrown";
  return "";
}

// TF's eager error text for a kernel failure in `op`.
// `wrapped`: the op TF's wrapper function is named after when it differs from op (with oneDNN on,
// TF rewrites float32 MatMul, the convolutions, ... to its oneDNN ops first: "__MklNativeConv2D").
inline std::string eager_text(const std::string& op, const std::string& msg,
                              const std::string& wrapped = "") {
  return "{{function_node __wrapped__" + (wrapped.empty() ? op : wrapped) +
         "_device_/job:localhost/replica:0/task:0/device:CPU:0}} " + msg + " [Op:" + op +
         "] name: ";
}

template <typename T>
std::vector<T> values(const Tensor& t) {
  return t.to_vector<T>();
}

}  // namespace tfs::testing
