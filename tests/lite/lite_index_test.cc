// The encoder's ops (GATHER, DEQUANTIZE, SHAPE, CAST, STRIDED_SLICE, PACK, SQUARED_DIFFERENCE,
// RSQRT; integer activations carried as floats): worked-out numbers on hand-built models, a
// converted function with an embedding, a new-axis slice, a layer norm and a computed reshape
// run like the function, the quantized embedding table, and one-line errors for malformed
// options. Bit-equality with LiteRT (TF's and tfscope's BERT-tiny-shaped encoder) is
// conformance/tflite/run.py's case 5.
#include <gtest/gtest.h>

#include <cmath>

#include "lite_cnn.h"
#include "lite_model.h"
#include "tfscope/lite.h"
#include "tfscope/ops_array.h"
#include "tfscope/ops_stats.h"

namespace tfs::lite {
namespace {

using detail::LiteModel;
using detail::LiteOp;
using detail::LiteTensor;

int32_t add(LiteModel& m, const std::string& name, std::vector<int32_t> shape,
            tflite::TensorType type = tflite::TensorType_FLOAT32) {
  LiteTensor t;
  t.name = name;
  t.type = type;
  t.shape = std::move(shape);
  return m.add_tensor(std::move(t));
}

template <typename T>
int32_t add_const(LiteModel& m, const std::string& name, std::vector<int32_t> shape,
                  const std::vector<T>& v, tflite::TensorType type) {
  const int32_t id = add(m, name, std::move(shape), type);
  LiteTensor& t = m.tensors[static_cast<size_t>(id)];
  t.is_const = true;
  t.data.assign(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  return id;
}

int32_t ints(LiteModel& m, const std::string& name, const std::vector<int32_t>& v) {
  return add_const(m, name, {static_cast<int32_t>(v.size())}, v, tflite::TensorType_INT32);
}

// A model of the given ops over inputs `ins` (tensor ids), its last op's output the model's.
std::string model_of(LiteModel m, const std::vector<int32_t>& ins) {
  m.inputs = ins;
  for (int32_t i : ins) m.signature_inputs.emplace_back(m.tensors[static_cast<size_t>(i)].name, i);
  m.outputs = m.ops.back().outputs;
  m.signature_outputs = {{"y", m.outputs[0]}};
  return detail::serialize(m);
}

LiteOp op_of(tflite::BuiltinOperator code, std::vector<int32_t> in, int32_t out) {
  LiteOp o;
  o.code = code;
  o.inputs = std::move(in);
  o.outputs = {out};
  return o;
}

std::string error_of(const std::string& bytes, const std::vector<Interpreter::TensorValue>& in) {
  try {
    Interpreter interp(ModelFile(bytes, "m.tflite"));
    interp.run(in);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "no error";
}

TEST(LiteIndex, GatherRowsOfFloatAndInt8TablesAndDequantize) {
  LiteModel m;
  const int32_t ids = add(m, "ids", {2}, tflite::TensorType_INT32);
  const int32_t table =
      add_const<float>(m, "t", {3, 2}, {1, 2, 3, 4, 5, 6}, tflite::TensorType_FLOAT32);
  const int32_t qtable =
      add_const<int8_t>(m, "q", {3, 2}, {1, -2, 3, 4, 5, -6}, tflite::TensorType_INT8);
  m.tensors[static_cast<size_t>(qtable)].scales = {0.5f};
  m.tensors[static_cast<size_t>(qtable)].zero_points = {0};
  const int32_t rows = add(m, "rows", {2, 2});
  const int32_t qrows = add(m, "qrows", {2, 2}, tflite::TensorType_INT8);
  m.tensors[static_cast<size_t>(qrows)].scales = {0.5f};
  m.tensors[static_cast<size_t>(qrows)].zero_points = {0};
  const int32_t deq = add(m, "deq", {2, 2});
  const int32_t sum = add(m, "sum", {2, 2});
  m.ops.push_back(op_of(tflite::BuiltinOperator_GATHER, {table, ids}, rows));
  m.ops.push_back(op_of(tflite::BuiltinOperator_GATHER, {qtable, ids}, qrows));
  m.ops.push_back(op_of(tflite::BuiltinOperator_DEQUANTIZE, {qrows}, deq));
  m.ops.push_back(op_of(tflite::BuiltinOperator_ADD, {rows, deq}, sum));
  Interpreter interp(ModelFile(model_of(m, {ids}), "m.tflite"));
  EXPECT_EQ(interp.input_type(0), tflite::TensorType_INT32);
  auto out = interp.run({{{2}, {2, 0}}});
  // rows [[5, 6], [1, 2]] + dequantized [[2.5, -3], [0.5, -1]].
  EXPECT_EQ(out[0].shape, (std::vector<int>{2, 2}));
  EXPECT_EQ(out[0].data, (std::vector<float>{7.5f, 3.0f, 1.5f, 1.0f}));
  EXPECT_EQ(error_of(model_of(m, {ids}), {{{2}, {3, 0}}}),
            "[lite] m.tflite: GATHER index 3 out of bounds for a table of 3 rows");
}

TEST(LiteIndex, ShapePackAndStridedSliceAreShapeArithmeticAReshapeCanUse) {
  // x [2, 3, 4] = 0..23; y = reshape(x, pack(shape(x)[0], 12)); z = y[:, 10:1:-4].
  LiteModel m;
  const int32_t x = add(m, "x", {2, 3, 4});
  const int32_t shp = add(m, "shape", {3}, tflite::TensorType_INT32);
  const int32_t batch = add(m, "batch", {}, tflite::TensorType_INT32);
  const int32_t packed = add(m, "packed", {2}, tflite::TensorType_INT32);
  const int32_t y = add(m, "y", {2, 12});
  const int32_t z = add(m, "z", {2, 3});
  m.ops.push_back(op_of(tflite::BuiltinOperator_SHAPE, {x}, shp));
  LiteOp first = op_of(tflite::BuiltinOperator_STRIDED_SLICE,
                       {shp, ints(m, "b0", {0}), ints(m, "e0", {1}), ints(m, "s0", {1})}, batch);
  first.shrink_axis_mask = 1;
  m.ops.push_back(first);
  const int32_t twelve = add_const<int32_t>(m, "12", {}, {12}, tflite::TensorType_INT32);
  m.ops.push_back(op_of(tflite::BuiltinOperator_PACK, {batch, twelve}, packed));
  m.ops.push_back(op_of(tflite::BuiltinOperator_RESHAPE, {x, packed}, y));
  LiteOp slice = op_of(tflite::BuiltinOperator_STRIDED_SLICE,
                       {y, ints(m, "b", {0, 10}), ints(m, "e", {0, 1}), ints(m, "s", {1, -4})}, z);
  slice.begin_mask = 1;
  slice.end_mask = 1;
  m.ops.push_back(slice);
  std::vector<float> data(24);
  for (int i = 0; i < 24; ++i) data[static_cast<size_t>(i)] = static_cast<float>(i);
  Interpreter interp(ModelFile(model_of(m, {x}), "m.tflite"));
  auto out = interp.run({{{2, 3, 4}, data}});
  // Columns 10, 6, 2 of each 12-wide row.
  EXPECT_EQ(out[0].shape, (std::vector<int>{2, 3}));
  EXPECT_EQ(out[0].data, (std::vector<float>{10, 6, 2, 22, 18, 14}));
}

TEST(LiteIndex, SquaredDifferenceRsqrtAndCast) {
  LiteModel m;
  const int32_t a = add(m, "a", {3});
  const int32_t mask = add(m, "mask", {3}, tflite::TensorType_INT32);
  const int32_t mf = add(m, "mf", {3});
  const int32_t one = add_const<float>(m, "one", {}, {1.0f}, tflite::TensorType_FLOAT32);
  const int32_t sd = add(m, "sd", {3});
  const int32_t r = add(m, "r", {3});
  const int32_t y = add(m, "y", {3});
  m.ops.push_back(op_of(tflite::BuiltinOperator_CAST, {mask}, mf));
  m.ops.push_back(op_of(tflite::BuiltinOperator_SQUARED_DIFFERENCE, {a, one}, sd));
  m.ops.push_back(op_of(tflite::BuiltinOperator_RSQRT, {sd}, r));
  m.ops.push_back(op_of(tflite::BuiltinOperator_MUL, {r, mf}, y));
  Interpreter interp(ModelFile(model_of(m, {a, mask}), "m.tflite"));
  auto out = interp.run({{{3}, {3.0f, -1.0f, 5.0f}}, {{3}, {1.0f, 0.0f, 1.0f}}});
  // (3 - 1)^2 = 4 -> 0.5; (-1 - 1)^2 = 4 -> 0.5 masked to 0; (5 - 1)^2 = 16 -> 0.25.
  EXPECT_EQ(out[0].data, (std::vector<float>{0.5f, 0.0f, 0.25f}));
}

TEST(LiteIndex, MalformedOptionsAreOneLineErrors) {
  struct Case {
    const char* what;
    std::string (*build)();
    std::vector<Interpreter::TensorValue> in;
    std::string want;
  };
  const Case cases[] = {
      {"gather axis 1",
       [] {
         LiteModel m;
         const int32_t ids = add(m, "ids", {2}, tflite::TensorType_INT32);
         const int32_t t =
             add_const<float>(m, "t", {2, 2}, {1, 2, 3, 4}, tflite::TensorType_FLOAT32);
         LiteOp o = op_of(tflite::BuiltinOperator_GATHER, {t, ids}, add(m, "y", {2, 2}));
         o.axis = 1;
         m.ops.push_back(o);
         return model_of(m, {ids});
       },
       {{{2}, {0, 1}}},
       "[lite] m.tflite: GATHER with axis 1 and batch_dims 0 is not supported (only axis 0, "
       "batch_dims 0)"},
      {"gather from an activation",
       [] {
         LiteModel m;
         const int32_t ids = add(m, "ids", {2}, tflite::TensorType_INT32);
         const int32_t t = add(m, "t", {2, 2});
         m.ops.push_back(op_of(tflite::BuiltinOperator_GATHER, {t, ids}, add(m, "y", {2, 2})));
         return model_of(m, {ids, t});
       },
       {{{2}, {0, 1}}, {{2, 2}, {1, 2, 3, 4}}},
       "[lite] m.tflite: GATHER table t must be a float32 or int8 constant of rank >= 1"},
      {"dequantize per channel",
       [] {
         LiteModel m;
         const int32_t x = add(m, "x", {1});
         const int32_t q = add_const<int8_t>(m, "q", {2}, {1, 2}, tflite::TensorType_INT8);
         m.tensors[static_cast<size_t>(q)].scales = {0.5f, 0.25f};
         const int32_t d = add(m, "d", {2});
         m.ops.push_back(op_of(tflite::BuiltinOperator_DEQUANTIZE, {q}, d));
         m.ops.push_back(op_of(tflite::BuiltinOperator_ADD, {d, x}, add(m, "y", {2})));
         return model_of(m, {x});
       },
       {{{1}, {1}}},
       "[lite] m.tflite: DEQUANTIZE of q: only int8 with one scale is supported"},
      {"stride 0",
       [] {
         LiteModel m;
         const int32_t x = add(m, "x", {4});
         m.ops.push_back(op_of(tflite::BuiltinOperator_STRIDED_SLICE,
                               {x, ints(m, "b", {0}), ints(m, "e", {4}), ints(m, "s", {0})},
                               add(m, "y", {4})));
         return model_of(m, {x});
       },
       {{{4}, {1, 2, 3, 4}}},
       "[lite] m.tflite: STRIDED_SLICE stride 0"},
      {"slice spec longer than the input",
       [] {
         LiteModel m;
         const int32_t x = add(m, "x", {4});
         m.ops.push_back(
             op_of(tflite::BuiltinOperator_STRIDED_SLICE,
                   {x, ints(m, "b", {0, 0}), ints(m, "e", {4, 1}), ints(m, "s", {1, 1})},
                   add(m, "y", {4})));
         return model_of(m, {x});
       },
       {{{4}, {1, 2, 3, 4}}},
       "[lite] m.tflite: STRIDED_SLICE of rank 1 with 2 begin, 2 end and 2 strides"},
      {"reshape to a computed shape of an activation",
       [] {
         LiteModel m;
         const int32_t x = add(m, "x", {4});
         const int32_t s = add(m, "s", {1}, tflite::TensorType_INT32);
         m.ops.push_back(op_of(tflite::BuiltinOperator_RESHAPE, {x, s}, add(m, "y", {4})));
         return model_of(m, {x, s});
       },
       {{{4}, {1, 2, 3, 4}}, {{1}, {4}}},
       "[lite] m.tflite: tensor s must be an integer constant"},
      {"pack of different shapes",
       [] {
         LiteModel m;
         const int32_t a = add(m, "a", {2});
         const int32_t b = add(m, "b", {3});
         m.ops.push_back(op_of(tflite::BuiltinOperator_PACK, {a, b}, add(m, "y", {2, 2})));
         return model_of(m, {a, b});
       },
       {{{2}, {1, 2}}, {{3}, {1, 2, 3}}},
       "[lite] m.tflite: PACK of different shapes"},
      {"cast beyond the carried integers",
       [] {
         LiteModel m;
         const int32_t x = add(m, "x", {1});
         m.ops.push_back(
             op_of(tflite::BuiltinOperator_CAST, {x}, add(m, "y", {1}, tflite::TensorType_INT32)));
         return model_of(m, {x});
       },
       {{{1}, {3e9f}}},
       "[lite] m.tflite: CAST of 3000000000.000000 to INT32 is beyond the interpreter's integer "
       "range (2^24)"},
  };
  for (const Case& c : cases) EXPECT_EQ(error_of(c.build(), c.in), c.want) << c.what;
}

// An embedding, a new-axis mask slice, a layer norm (moments, x / sqrt) and a reshape by a
// computed shape, converted float and dynamic-range; the float model runs like the function.
struct Embedder {
  std::shared_ptr<Function> fn;
  testing::ConvModel holder;  // owns the variables
};

Embedder make_embedder() {
  Embedder e;
  auto table = testing::lcg_variable(e.holder, "table", Shape{40, 32}, 401, 1.0f);
  auto proj = testing::lcg_variable(e.holder, "proj", Shape{32, 8}, 402, 0.3f);
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1, 4}, DType::kInt32, "ids"),
                                            TensorSpec(PartialShape{-1, 4}, DType::kInt32, "mask")};
  e.fn = function(
      "embedder", {"ids", "mask"},
      [=](Tensor ids, Tensor mask) -> Tensor {
        Tensor x = gather(table->read_value(), Value(ids));
        Tensor mean = reduce("Mean", x, Value::list({-1}), true);
        Tensor var =
            reduce("Mean", squared_difference(Value(x), Value(mean)), Value::list({-1}), true);
        Tensor norm = (x - Value(mean)) / Value(sqrt(var + Value(1e-6f)));
        Tensor m = strided_slice(cast(mask, DType::kFloat32), {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, 5, 5,
                                 0, 2, 0);  // mask[:, tf.newaxis, :]
        Tensor h = matmul(reshape(norm, Value::list({Value(-1), Value(32)})), proj->read_value());
        Tensor batch = strided_slice(shape(ids), {0}, {1}, {1}, 0, 0, 0, 0, 1);
        h = reshape(h,
                    Value(stack({batch, Tensor::scalar<int32_t>(4), Tensor::scalar<int32_t>(8)})));
        return h * Value(transpose(m, std::vector<int64_t>{0, 2, 1}));
      },
      opts);
  return e;
}

TEST(LiteIndex, ConvertedEmbedderRunsLikeItsFunctionAndQuantizesItsTable) {
  Embedder e = make_embedder();
  auto cf = e.fn->get_concrete_function();
  const std::vector<float> ids = {3, 39, 0, 7, 12, 5, 1, 2};
  const std::vector<float> mask = {1, 1, 0, 1, 1, 1, 1, 0};
  Interpreter lite(ModelFile(convert(*cf), "embedder"));
  auto got = lite.run({{{2, 4}, ids}, {{2, 4}, mask}});
  auto as_int = [](const std::vector<float>& v) {
    std::vector<int32_t> out(v.begin(), v.end());
    return Tensor::from_vector(out, Shape{2, 4});
  };
  Tensor want = cf->run_flat({as_int(ids), as_int(mask)})[0];
  ASSERT_EQ(got[0].shape, (std::vector<int>{2, 4, 8}));
  for (int64_t i = 0; i < want.num_elements(); ++i) {
    const float w = want.data<float>()[i];
    EXPECT_NEAR(got[0].data[static_cast<size_t>(i)], w, 1e-5f * std::max(1.0f, std::fabs(w))) << i;
  }
  // Dynamic range: the 1280-element table becomes int8 (one scale) read through a DEQUANTIZE;
  // the 256-element projection stays float.
  ConvertOptions opts;
  opts.dynamic_range = true;
  ModelFile q(convert(*cf, opts), "embedder int8");
  const auto& sg = *q.model().subgraphs()->Get(0);
  int gathers = 0, dequantizes = 0;
  for (const tflite::Operator* op : *sg.operators()) {
    const auto code = builtin_code(*q.model().operator_codes()->Get(op->opcode_index()));
    if (code == tflite::BuiltinOperator_GATHER) {
      ++gathers;
      const auto* t = sg.tensors()->Get(static_cast<flatbuffers::uoffset_t>(op->inputs()->Get(0)));
      EXPECT_EQ(t->type(), tflite::TensorType_INT8);
      EXPECT_EQ(t->quantization()->scale()->size(), 1u);
      const auto* out =
          sg.tensors()->Get(static_cast<flatbuffers::uoffset_t>(op->outputs()->Get(0)));
      EXPECT_EQ(out->type(), tflite::TensorType_INT8);
    }
    dequantizes += code == tflite::BuiltinOperator_DEQUANTIZE;
  }
  EXPECT_EQ(gathers, 1);
  EXPECT_EQ(dequantizes, 1);
  DeltaReport r = convert_tflite_dynamic(*cf, 4, 1);
  ASSERT_EQ(r.quantized_ops.size(), 1u);
  EXPECT_EQ(r.quantized_ops[0].rfind("GATHER ", 0), 0u) << r.quantized_ops[0];
  EXPECT_NE(r.quantized_ops[0].find(" (int8 [40, 32], 1 scale)"), std::string::npos)
      << r.quantized_ops[0];
  EXPECT_GT(r.max_abs_delta, 0.0);
  EXPECT_FALSE(r.layers.empty());  // paired across the DEQUANTIZE
}

TEST(LiteIndex, ConverterRefusesWhatItCannotLowerInOneLine) {
  auto error = [](std::function<Tensor(Tensor)> body) {
    FunctionOptions opts;
    opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{2, 3}, DType::kFloat32, "x")};
    auto fn = function("f", {"x"}, body, opts);
    try {
      (void)convert(*fn->get_concrete_function());
    } catch (const FormatError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error([](Tensor x) { return strided_slice(x, {0}, {1}, {1}, 0, 0, 1, 0, 0) * 2.0f; }),
            "[lite] convert: StridedSlice StridedSlice: ellipsis_mask does not convert");
}

}  // namespace
}  // namespace tfs::lite
