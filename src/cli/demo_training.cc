// The demo's training section: the classic retracing bug of a training loop. A linear model
// trained by SGD in a tf.function that also takes the step number: a Python int `step` is a
// literal of the cache key, so each of the 100 calls traces (TF's two frequent-retracing
// warnings, each trace's reason the new literal); `tf.constant(step)` is a tensor, one trace. The
// losses are the same step by step. conformance/cases/ad_training_demo.py is the same program in
// Python, compared there with TF 2.21.
#include <memory>
#include <string>
#include <vector>

#include "demo.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/tape.h"
#include "tfscope/variable.h"

namespace tfscope_cli {

using tfs::Tensor;
using tfs::Value;

namespace {

constexpr int kSteps = 100;

Tensor features() {
  return Tensor::from_vector<float>(
      {1.0f, 2.0f, 0.5f, 0.0f, -1.0f, 1.5f, 2.0f,  0.5f, -0.5f, -1.0f, 1.0f, 1.0f,
       0.5f, 0.0f, 2.0f, 1.5f, -0.5f, 0.0f, -0.5f, 2.0f, -1.0f, 1.0f,  1.0f, 1.0f},
      tfs::Shape{8, 3});
}

Tensor targets() {
  return Tensor::from_vector<float>({3.0f, 1.0f, 2.5f, 0.5f, 2.0f, 1.0f, 1.5f, 3.0f},
                                    tfs::Shape{8, 1});
}

// The model's variables and its training step: loss = mean((x @ w + b - y)^2), then
// w -= 0.05 * dw, b -= 0.05 * db, and the step number stored.
struct Trainer {
  tfs::Variable w{Value(tfs::zeros({3, 1})), "w"};
  tfs::Variable b{Value(tfs::zeros({1})), "b"};
  tfs::Variable last_step{Value(0), "last_step"};
  std::shared_ptr<tfs::Function> train_step;

  explicit Trainer(const std::string& key) {
    tfs::FunctionOptions options;
    options.detector_key = key;  // each loop is its own `def` in the Python program
    options.display_name = "<function make_train_step.<locals>.train_step at 0x...>";
    train_step = tfs::function(
        "train_step", {"x", "y", "step"},
        [this](Tensor x, Tensor y, Value step) {
          tfs::GradientTape tape;
          tape.enter();
          Tensor pred = tfs::add(tfs::matmul(x, w.read_value()), Value(b.read_value()));
          Tensor loss = tfs::reduce_mean(tfs::square(tfs::subtract(pred, y)));
          tape.exit();
          std::vector<Tensor> g = tape.gradient({loss}, {w.state(), b.state()});
          w.assign_sub(Value(tfs::multiply(Value(0.05), g[0])));
          b.assign_sub(Value(tfs::multiply(Value(0.05), g[1])));
          last_step.assign(step);
          return loss;
        },
        options);
  }
};

}  // namespace

void demo_training(DemoContext& ctx) {
  Tensor x = features(), y = targets();
  ctx.say("train_step(x, y, step): one SGD step of a linear model (8 examples, 3 features),");
  ctx.say("called for step in range(100).");
  ctx.say("");
  ctx.say("The bug: step passed as a Python int.");
  Trainer buggy("train_step (python-int step)");
  nlohmann::ordered_json buggy_losses = nlohmann::ordered_json::array();
  for (int step = 0; step < kSteps; ++step) {
    Value loss = buggy.train_step->call({x, y, Value(int64_t{step})});
    buggy_losses.push_back(loss.as_tensor().item<float>());
  }
  const size_t warnings = ctx.warnings.size();
  const tfs::CallLedger ledger = buggy.train_step->ledger();
  std::vector<std::string> reasons;
  for (auto& e : ledger.entries)
    if (e.traced) reasons.push_back(e.reason);
  ctx.say(std::to_string(kSteps) + " calls, " +
          std::to_string(buggy.train_step->experimental_get_tracing_count()) + " traces, " +
          std::to_string(warnings) + " retracing warnings (above). Why the second call traced:");
  if (reasons.size() > 1) ctx.say("  " + reasons[1]);
  ctx.say("");
  ctx.say("The fix: step passed as tf.constant(step).");
  Trainer fixed("train_step (tensor step)");
  nlohmann::ordered_json fixed_losses = nlohmann::ordered_json::array();
  for (int step = 0; step < kSteps; ++step) {
    Value loss = fixed.train_step->call({x, y, Value(Tensor::scalar<int32_t>(step))});
    fixed_losses.push_back(loss.as_tensor().item<float>());
  }
  ctx.say(std::to_string(kSteps) + " calls, " +
          std::to_string(fixed.train_step->experimental_get_tracing_count()) + " trace.");
  ctx.say("");
  ctx.say("Losses (the same in both loops):");
  for (int step : {0, 1, 2, 10, 50, 99}) {
    ctx.say(
        "  step " + std::to_string(step) + ": " +
        Tensor::scalar<float>(buggy_losses[static_cast<size_t>(step)].get<float>()).numpy_str());
  }
  ctx.result["python_int_step"] = {
      {"calls", ledger.calls()},  {"traces", buggy.train_step->experimental_get_tracing_count()},
      {"warnings", ctx.warnings}, {"reasons", reasons},
      {"losses", buggy_losses},   {"last_step", buggy.last_step.numpy().item<int32_t>()}};
  ctx.result["tensor_step"] = {{"calls", fixed.train_step->ledger().calls()},
                               {"traces", fixed.train_step->experimental_get_tracing_count()},
                               {"losses", fixed_losses}};
  ctx.result["same_losses"] = buggy_losses == fixed_losses;
}

}  // namespace tfscope_cli
