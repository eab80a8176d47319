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
  std::vector<int64_t> zero_points;
};

// Activations are float32 values. INT32 and INT8 activations (token ids, shapes, a GATHER of
// int8 rows before its DEQUANTIZE) are carried as the same integers in float32, exact up to
// 2^24 (kMaxCarriedInt): integer constants beyond it are not carried, CAST to INT32 and GATHER's
// indices check it.
inline constexpr float kMaxCarriedInt = 16777216.0f;
inline bool is_carried_type(int type) {
  return type == tflite::TensorType_FLOAT32 || type == tflite::TensorType_INT32 ||
         type == tflite::TensorType_INT8;
}

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
    // STRIDED_SLICE: the first index and step per input dimension; GATHER: rows and row size.
    std::vector<int> begin, step;
    float scale = 0;  // DEQUANTIZE
    int zero_point = 0;
    float beta = 0;  // SOFTMAX
    // CONV_2D, DEPTHWISE_CONV_2D, MAX_POOL_2D, AVERAGE_POOL_2D (interpreter_conv.cc).
    struct Window {
      int batches = 0, in_h = 0, in_w = 0, in_d = 0;
      int f_h = 1, f_w = 1, out_h = 0, out_w = 0, out_d = 0;
      int stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1, pad_h = 0, pad_w = 0;
      int multiplier = 1;  // DEPTHWISE_CONV_2D
      int f_in = 1;        // CONV_2D: the filter's input depth (the input's, or a group's)
      int padding = 0;     // tflite::Padding
      const float* filter = nullptr;    // float filter (the model's, or `dequantized`)
      const int8_t* qfilter = nullptr;  // hybrid: int8 filter and its per-channel scales
      const float* scales = nullptr;
      std::vector<float> dequantized;  // Kernels::kDequantized: q * scale of its channel
      std::vector<int8_t> qin;         // hybrid: the quantized input, per image
      std::vector<float> sf;
      std::vector<int32_t> zp;
    } win;
  };

  ModelFile file;
  Kernels kernels;
  const tflite::SubGraph* sg = nullptr;
  std::vector<RtTensor> tensors;
  std::vector<int> inputs, outputs;
  std::vector<Op> ops;
  std::vector<TensorValue> values;  // every tensor's shape and data at the planned shapes
  std::vector<char> defined;        // while preparing: tensors with a value so far
  // While preparing: tensors whose value is known before the run (constants, SHAPE outputs and
  // operators of known inputs, which prepare evaluates at once: shape arithmetic).
  std::vector<char> known;
  bool planned = false;

  Impl(ModelFile f, Kernels k);

  const std::string& fname() const { return file.name(); }
  [[noreturn]] void fail(const std::string& what) const;

  void load();
  // Refuses a shape whose element or byte count overflows 64 bits, as LiteRT does at load.
  void check_byte_count(const RtTensor& r) const;
  // Gives input i (an index into `inputs`) `shape` and a buffer of its size (at most 2^31
  // elements), when it is resized, first written or planned: never at load.
  void size_input(size_t i, const std::vector<int>& shape);
  void check_op(Op& o);
  void plan();

  // While preparing: the value of tensor t, which must have one (a float constant, a model input
  // or an earlier operator's output), with non-negative dimensions.
  TensorValue& value(int t);
  // The values of an integer tensor known before the run (a shape, axes, a permutation).
  std::vector<int> ints(int t) const;
  // While preparing: marks operator o's output as defined and sizes it.
  TensorValue& define_output(Op& o, const std::vector<int>& shape);
};

// interpreter_conv.cc: load-time checks, prepare and eval of the convolutions and pools.
bool is_window_op(int code);
void check_window_op(Interpreter::Impl& m, Interpreter::Impl::Op& o);
void prepare_window_op(Interpreter::Impl& m, Interpreter::Impl::Op& o);
void eval_window_op(Interpreter::Impl& m, Interpreter::Impl::Op& o);

// interpreter_index.cc: GATHER, DEQUANTIZE, SHAPE, CAST, STRIDED_SLICE, PACK.
bool is_index_op(int code);
void prepare_index_op(Interpreter::Impl& m, Interpreter::Impl::Op& o);
void eval_index_op(Interpreter::Impl& m, Interpreter::Impl::Op& o);

// interpreter_ops.cc
void prepare_op(Interpreter::Impl& m, Interpreter::Impl::Op& o);
void eval_op(Interpreter::Impl& m, Interpreter::Impl::Op& o);
kernels::Activation activation_of(int code, const Interpreter::Impl& m);
int64_t element_count(const std::vector<int>& shape);
std::string shape_str(const std::vector<int>& shape);

}  // namespace tfs::lite
