// The interpreter's state, shared by interpreter.cc (loading, planning, the public API) and
// interpreter_ops.cc (each operator's prepare and eval). Internal to src/lite.
//
// A run has two phases, as in TFLite: prepare (once per set of input shapes: output shapes, the
// checks that give one-line errors, every buffer sized) and eval (the arithmetic only, no
// allocation, no shape work). Interpreter::invoke prepares when an input shape changed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfscope/lite.h"
#include "tfscope/lite_kernels.h"

namespace tfs::lite {

struct RtTensor {
  int type = tflite::TensorType_FLOAT32;
  std::string name;
  std::vector<int> shape;
  bool is_const = false;
  std::vector<float> f;    // FLOAT32 constants
  std::vector<int32_t> i;  // INT32 / INT64 constants (shapes, axes)
  std::vector<int8_t> q;   // INT8 constants
  std::vector<float> scales;
};

struct Interpreter::Impl {
  using TensorValue = Interpreter::TensorValue;

  struct Op {
    int code = 0;
    const tflite::Operator* op = nullptr;
    std::vector<int> in, out;
    kernels::Activation act = kernels::Activation::kNone;
    // FULLY_CONNECTED: the packed weights and the kernel's buffers.
    kernels::PreparedFc fc;
    kernels::FcScratch scratch;
    bool asymmetric = false;
    int batch = 0;
    // Index walks (broadcasting binary ops, TRANSPOSE, MEAN, BATCH_MATMUL): strides of the
    // operands per output dimension, the dimensions walked and an index of that rank.
    std::vector<int64_t> strides_a, strides_b;
    std::vector<int> dims, idx;
    bool same_shape = false;       // binary op without broadcasting
    std::vector<float> sums;       // MEAN
    int64_t outer = 0, inner = 0;  // CONCATENATION; BATCH_MATMUL: batches
    int m = 0, k = 0, n = 0;       // BATCH_MATMUL; SOFTMAX: k is the row length
    int axis = 0;                  // CONCATENATION
    bool adj_x = false, adj_y = false;
    bool approximate = false;  // GELU
    float beta = 0;            // SOFTMAX
  };

  ModelFile file;
  Kernels kernels;
  const tflite::SubGraph* sg = nullptr;
  std::vector<RtTensor> tensors;
  std::vector<int> inputs, outputs;
  std::vector<Op> ops;
  std::vector<TensorValue> values;  // every tensor's shape and data at the planned shapes
  std::vector<char> defined;        // while preparing: tensors with a value so far
  bool planned = false;

  Impl(ModelFile f, Kernels k);

  const std::string& fname() const { return file.name(); }
  [[noreturn]] void fail(const std::string& what) const;

  void load();
  void check_op(Op& o);
  void plan();

  // While preparing: the value of tensor t, which must have one (a float constant, a model input
  // or an earlier operator's output), with non-negative dimensions.
  TensorValue& value(int t);
  // The values of an integer constant (a shape, axes, a permutation).
  std::vector<int> ints(int t) const;
  // While preparing: marks operator o's output as defined and sizes it.
  TensorValue& define_output(Op& o, const std::vector<int>& shape);
};

// interpreter_ops.cc
void prepare_op(Interpreter::Impl& m, Interpreter::Impl::Op& o);
void eval_op(Interpreter::Impl& m, Interpreter::Impl::Op& o);
kernels::Activation activation_of(int code, const Interpreter::Impl& m);
int64_t element_count(const std::vector<int>& shape);
std::string shape_str(const std::vector<int>& shape);

}  // namespace tfs::lite
