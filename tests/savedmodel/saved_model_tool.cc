// saved_model_tool: tfs::saved_model::save/load driven from conformance/saved_model/run.py.
//   saved_model_tool save-mlp DIR        -- saves the lab MLP (lab_mlp.h), prints its weights
//   saved_model_tool save-control DIR    -- saves a function with tf.cond and tf.while_loop (If
//                                           and While with their bodies as FunctionDefs)
//   saved_model_tool save-ops DIR        -- saves a function touching most of tfscope's op set
//                                           (one dict output per family)
//   saved_model_tool run DIR KEY         -- loads DIR, runs signature KEY on the inputs given on
//                                           stdin (one feed, or a JSON array of feeds), prints
//                                           the outputs (one object, or an array)
//   saved_model_tool signatures DIR      -- prints each signature's inputs and outputs
//   saved_model_tool op-args              -- every registered op's input and output arg names
//                                           (FunctionDefs name outputs "node:arg:index")
// Tensors travel as JSON {"dtype": "float32", "shape": [...], "hex": "<raw little-endian bytes>"};
// stdin for run is {"x": tensor, ...}, stdout {"output_0": tensor, ...}.
#include <cstring>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "lab_mlp.h"
#include "tfscope/control_flow.h"
#include "tfscope/ops_array.h"
#include "tfscope/saved_model.h"

namespace {

using nlohmann::json;

std::string to_hex(const void* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  const auto* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) {
    out += digits[b[i] >> 4];
    out += digits[b[i] & 15];
  }
  return out;
}

json tensor_json(const tfs::Tensor& t) {
  return {{"dtype", std::string(tfs::dtype_name(t.dtype()))},
          {"shape", t.eager_shape().dims()},
          {"hex", to_hex(t.raw_data(), t.nbytes())}};
}

tfs::Tensor tensor_from_json(const json& j) {
  tfs::DType dt = tfs::dtype_from_name(j.at("dtype").get<std::string>());
  tfs::Tensor t = tfs::Tensor::empty(dt, tfs::Shape(j.at("shape").get<std::vector<int64_t>>()));
  const std::string hex = j.at("hex");
  if (hex.size() != 2 * t.nbytes()) throw std::runtime_error("hex size does not match shape");
  auto* out = static_cast<unsigned char*>(t.raw_data());
  for (size_t i = 0; i < t.nbytes(); ++i)
    out[i] = static_cast<unsigned char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "op-args") {
    json out = json::object();
    for (const auto& name : tfs::OpRegistry::global().names()) {
      const tfs::OpDef& d = tfs::OpRegistry::global().get(name);
      json ins = json::array(), outs = json::array();
      for (const auto& a : d.inputs) ins.push_back(a.name);
      for (const auto& a : d.outputs) outs.push_back(a.name);
      out[name] = {{"inputs", ins}, {"outputs", outs}};
    }
    std::cout << out.dump() << "\n";
    return 0;
  }
  if (argc < 3) {
    std::cerr << "usage: saved_model_tool save-mlp DIR | run DIR KEY | signatures DIR\n";
    return 2;
  }
  try {
    const std::string mode = argv[1];
    if (mode == "save-mlp") {
      auto mlp = tfs::savedmodel::testing::make_lab_mlp();
      tfs::saved_model::save(*mlp.fn, argv[2]);
      json weights;
      for (auto& [name, v] :
           {std::pair{"w1", mlp.w1}, {"b1", mlp.b1}, {"w2", mlp.w2}, {"b2", mlp.b2}})
        weights[name] = tensor_json(v->numpy());
      std::cout << json{{"weights", weights}}.dump() << "\n";
    } else if (mode == "save-control") {
      tfs::FunctionOptions opts;
      opts.input_signature =
          std::vector<tfs::Value>{tfs::TensorSpec(tfs::PartialShape{-1, 4}, tfs::DType::kFloat32)};
      auto fn = tfs::function(
          "control", {"x"},
          [](tfs::Tensor x) {
            // y = x * 2 if sum(x) > 0 else x - 1; then three times y = y * 1.5 + 1.
            tfs::Tensor y = tfs::cond(
                tfs::reduce_sum(x) > tfs::Value(0.0f),
                [&] { return std::vector<tfs::Tensor>{x * 2.0f}; },
                [&] { return std::vector<tfs::Tensor>{x - tfs::Value(1.0f)}; })[0];
            auto out = tfs::while_loop(
                [](const std::vector<tfs::Tensor>& v) { return v[0] < tfs::Value(3); },
                [](const std::vector<tfs::Tensor>& v) {
                  return std::vector<tfs::Tensor>{v[0] + tfs::Value(1), v[1] * 1.5f + 1.0f};
                },
                {tfs::Tensor::scalar<int32_t>(0), y});
            return out[1];
          },
          opts);
      tfs::saved_model::save(*fn, argv[2]);
      std::cout << "{}\n";
    } else if (mode == "save-ops") {
      using tfs::Tensor;
      using tfs::Value;
      tfs::FunctionOptions opts;
      opts.input_signature =
          std::vector<Value>{tfs::TensorSpec(tfs::PartialShape{-1, 4}, tfs::DType::kFloat32)};
      auto fn = tfs::function(
          "ops", {"x"},
          [](Tensor x) {
            Tensor ax = tfs::abs(x);
            tfs::ValueItems out;
            auto put = [&](const char* k, Tensor t) { out.emplace_back(Value(k), Value(t)); };
            put("square", tfs::square(x));
            put("div", tfs::neg(x) * 0.5f / (x * x + 1.0f));
            put("maximum", tfs::maximum(x, 0.1f) + tfs::minimum(x, 2.0f));
            put("floordiv", tfs::floordiv(x, 0.7f));
            put("floormod", tfs::floormod(x, 0.7f));
            put("pow", tfs::pow(ax, 2.0f));
            put("exp", tfs::exp(x * 0.1f));
            put("log", tfs::log(ax + 1.0f));
            put("tanh", tfs::tanh(x));
            put("sigmoid", tfs::sigmoid(x));
            put("erf", tfs::erf(x));
            put("sqrt", tfs::sqrt(ax) + tfs::rsqrt(ax + 1.0f));
            put("gelu", tfs::gelu(x));
            put("relu6", tfs::relu6(x));
            put("softmax", tfs::softmax(x) + tfs::log_softmax(x));
            put("reduce", tfs::stack({tfs::reduce_sum(x, std::vector<int64_t>{1}),
                                      tfs::reduce_mean(x, std::vector<int64_t>{1}),
                                      tfs::reduce_max(x, std::vector<int64_t>{1}),
                                      tfs::reduce_min(x, std::vector<int64_t>{1}),
                                      tfs::reduce_prod(x, std::vector<int64_t>{1})},
                                     1));
            put("shapes", tfs::concat({tfs::reshape(tfs::transpose(x), Value::list({Value(-1)})),
                                       tfs::reshape(tfs::squeeze(tfs::expand_dims(x, 0), {0}),
                                                    Value::list({Value(-1)}))},
                                      0));
            put("slices", tfs::concat({tfs::slice(x, {0, 1}, {-1, 2}),
                                       tfs::strided_slice(x, {0, 3}, {0, 0}, {1, -1}, 1, 3),
                                       tfs::gather(x, Value::list({Value(3), Value(0)}), 1)},
                                      1));
            put("argmax", tfs::argmax(x, 1));
            put("select", tfs::where(x > Value(0.0f), x, Value(0.0f)));
            put("cast", tfs::cast(x * 10.0f, tfs::DType::kInt32));
            put("logic",
                tfs::cast(tfs::logical_or(tfs::logical_and(x > Value(0.0f), x < Value(1.0f)),
                                          tfs::logical_not(tfs::not_equal(x, x))),
                          tfs::DType::kFloat32));
            put("shape", tfs::concat({tfs::shape(x), tfs::stack({tfs::size(x), tfs::rank(x)})}, 0));
            put("fill", tfs::fill(tfs::shape(x), Value(1.5f)) + tfs::zeros_like(x) +
                            tfs::ones_like(x) +
                            tfs::cast(tfs::range(Value(0), Value(4)), tfs::DType::kFloat32));
            put("dense", tfs::bias_add(tfs::matmul(x, tfs::transpose(x), false, false),
                                       tfs::reduce_sum(x, std::vector<int64_t>{1})));
            return Value::dict(out);
          },
          opts);
      tfs::saved_model::save(*fn, argv[2]);
      std::cout << "{}\n";
    } else if (mode == "run" && argc >= 4) {
      auto model = tfs::saved_model::load(argv[2]);
      const json in = json::parse(std::cin);
      const auto& sig = model->signature(argv[3]);
      auto run = [&](const json& one) {
        tfs::saved_model::NamedTensors feeds;
        for (auto& [k, v] : one.items()) feeds.emplace_back(k, tensor_from_json(v));
        json out = json::object();
        for (auto& [k, t] : sig.call(feeds)) out[k] = tensor_json(t);
        return out;
      };
      if (in.is_array()) {
        json all = json::array();
        for (const auto& one : in) all.push_back(run(one));
        std::cout << all.dump() << "\n";
      } else {
        std::cout << run(in).dump() << "\n";
      }
    } else if (mode == "signatures") {
      auto model = tfs::saved_model::load(argv[2]);
      json out = {{"format", model->format()}, {"signatures", json::object()}};
      for (auto& [k, s] : model->signatures()) {
        json sig = {{"inputs", json::object()}, {"outputs", json::object()}};
        for (auto& t : s.inputs())
          sig["inputs"][t.key] = {std::string(tfs::dtype_name(t.dtype)), t.shape.str()};
        for (auto& t : s.outputs())
          sig["outputs"][t.key] = {std::string(tfs::dtype_name(t.dtype)), t.shape.str()};
        out["signatures"][k] = sig;
      }
      std::cout << out.dump() << "\n";
    } else {
      std::cerr << "saved_model_tool: unknown command " << mode << "\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::string msg = e.what();
    std::cerr << "saved_model_tool: error: " << msg.substr(0, msg.find('\n')) << "\n";
    return 1;
  }
  return 0;
}
