// The convolution models of the lite tests and conformance/tflite/run.py (whose TF modules build
// the same graphs): a small CNN and a depthwise-separable block, weights from the LCG.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lite_mlp.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/ops_conv.h"
#include "tfscope/variable.h"

namespace tfs::lite::testing {

struct ConvModel {
  // name -> (shape, values), in the order run.py's CONV_WEIGHTS lists them.
  std::vector<std::pair<std::string, std::shared_ptr<Variable>>> weights;
  std::vector<float> values(const std::string& name) const {
    for (const auto& [n, v] : weights) {
      if (n == name) return v->read_value().to_vector<float>();
    }
    return {};
  }
  std::shared_ptr<Function> fn;
};

inline std::shared_ptr<Variable> lcg_variable(ConvModel& m, const std::string& name,
                                              const Shape& shape, uint32_t seed, float scale) {
  auto v = std::make_shared<Variable>(
      Tensor::from_vector(lcg_floats(static_cast<size_t>(shape.num_elements()), seed, scale),
                          shape),
      name);
  m.weights.emplace_back(name, v);
  return v;
}

inline std::vector<int64_t> hw(int64_t h, int64_t w) {
  return {1, h, w, 1};
}

// images[None, 28, 28, 1] -> conv 3x3x8 SAME + bias + relu -> max pool 2 -> conv 3x3x16 SAME +
// bias + relu -> avg pool 2 -> reshape [-1, 784] -> dense 10 -> softmax.
inline ConvModel make_cnn() {
  ConvModel m;
  auto w1 = lcg_variable(m, "w1", Shape{3, 3, 1, 8}, 201, 0.5f);
  auto b1 = lcg_variable(m, "b1", Shape{8}, 202, 0.1f);
  auto w2 = lcg_variable(m, "w2", Shape{3, 3, 8, 16}, 203, 0.2f);
  auto b2 = lcg_variable(m, "b2", Shape{16}, 204, 0.1f);
  auto wd = lcg_variable(m, "wd", Shape{7 * 7 * 16, 10}, 205, 0.05f);
  auto bd = lcg_variable(m, "bd", Shape{10}, 206, 0.1f);
  FunctionOptions opts;
  opts.input_signature =
      std::vector<Value>{TensorSpec(PartialShape{-1, 28, 28, 1}, DType::kFloat32, "images")};
  m.fn = function(
      "cnn", {"images"},
      [=](Tensor x) -> Tensor {
        ConvAttrs same;
        same.padding = "SAME";
        Tensor y = relu(bias_add(conv2d(x, Value(w1->state()), same), Value(b1->state())));
        y = max_pool2d(y, hw(2, 2), hw(2, 2), "VALID");
        y = relu(bias_add(conv2d(y, Value(w2->state()), same), Value(b2->state())));
        y = avg_pool2d(y, hw(2, 2), hw(2, 2), "VALID");
        y = reshape(y, Value::list({Value(-1), Value(7 * 7 * 16)}));
        return softmax(matmul(y, wd->read_value()) + Value(bd->read_value()));
      },
      opts);
  return m;
}

// x[None, 12, 12, 64] -> depthwise 3x3 x2 SAME + bias + relu6 -> 1x1 conv 32 VALID + add + relu
// -> depthwise 3x3 stride 2 VALID (no bias) -> max pool 3 SAME -> avg pool 3 stride 2 SAME.
inline ConvModel make_separable() {
  ConvModel m;
  auto dw = lcg_variable(m, "dw", Shape{3, 3, 64, 2}, 301, 0.3f);
  auto db = lcg_variable(m, "db", Shape{128}, 302, 0.1f);
  auto pw = lcg_variable(m, "pw", Shape{1, 1, 128, 32}, 303, 0.1f);
  auto pb = lcg_variable(m, "pb", Shape{32}, 304, 0.1f);
  auto dw2 = lcg_variable(m, "dw2", Shape{3, 3, 32, 1}, 305, 0.3f);
  FunctionOptions opts;
  opts.input_signature =
      std::vector<Value>{TensorSpec(PartialShape{-1, 12, 12, 64}, DType::kFloat32, "x")};
  m.fn = function(
      "sep", {"x"},
      [=](Tensor x) -> Tensor {
        ConvAttrs same, valid, valid2;
        same.padding = "SAME";
        valid2.strides = {1, 2, 2, 1};
        Tensor y =
            relu6(bias_add(depthwise_conv2d(x, Value(dw->state()), same), Value(db->state())));
        y = relu(conv2d(y, Value(pw->state()), valid) + Value(pb->state()));
        y = depthwise_conv2d(y, Value(dw2->state()), valid2);
        y = max_pool2d(y, hw(3, 3), hw(1, 1), "SAME");
        return avg_pool2d(y, hw(3, 3), hw(2, 2), "SAME");
      },
      opts);
  return m;
}

// x[None, 9, 9, 4] -> conv 3x3x8 stride 2 SAME (no bias) + relu -> conv 2x2x8 dilation 2 VALID
// (no bias) -> max pool 1 + relu6 -> avg pool 2 stride 1 SAME + relu -> * 2.
inline ConvModel make_fused() {
  ConvModel m;
  auto w = lcg_variable(m, "w", Shape{3, 3, 4, 8}, 401, 0.3f);
  auto w2 = lcg_variable(m, "w2", Shape{2, 2, 8, 8}, 402, 0.3f);
  FunctionOptions opts;
  opts.input_signature =
      std::vector<Value>{TensorSpec(PartialShape{-1, 9, 9, 4}, DType::kFloat32, "x")};
  m.fn = function(
      "fused", {"x"},
      [=](Tensor x) -> Tensor {
        ConvAttrs same2, dilated;
        same2.padding = "SAME";
        same2.strides = {1, 2, 2, 1};
        dilated.dilations = {1, 2, 2, 1};
        Tensor y = relu(conv2d(x, Value(w->state()), same2));
        y = conv2d(y, Value(w2->state()), dilated);
        y = relu6(max_pool2d(y, hw(1, 1), hw(1, 1), "VALID"));
        y = relu(avg_pool2d(y, hw(2, 2), hw(1, 1), "SAME"));
        return y * 2.0;
      },
      opts);
  return m;
}

}  // namespace tfs::lite::testing
