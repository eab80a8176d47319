// Demo section for AutoGraph: what the converter makes of a function with a tensor-dependent
// `for` and `if`, and the same control flow written with tfs::cond / tfs::while_loop in C++,
// whose graph holds the If/While ops TF 2.21 builds for the Python function.
#include <set>
#include <string>

#include "demo.h"
#include "tfscope/autograph.h"
#include "tfscope/control_flow.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"

namespace tfscope_cli {

using tfs::Tensor;

namespace {

// The Python function the section converts: conformance/autograph/corpus/sum_even.py, whose
// to_code text and graph (1 StatelessWhile, 1 StatelessIf in its body) are checked against TF.
constexpr const char* kSumEvenSource = R"(import tensorflow as tf


def sum_even(n):
  s = 0
  for i in tf.range(n):
    if i % 2 == 0:
      s += i
  return s
)";

struct ControlFlowOps {
  int if_ops = 0;     // If + StatelessIf
  int while_ops = 0;  // While + StatelessWhile
};

// Counts over the graph and every function in its library, transitively (TF: graph_def.node plus
// graph_def.library.function[*].node_def), each library function once.
void count_control_flow(const tfs::Graph& g, std::set<std::string>& seen, ControlFlowOps& out) {
  for (const auto& n : g.nodes()) {
    const std::string& op = n->op();
    if (op == "If" || op == "StatelessIf") ++out.if_ops;
    if (op == "While" || op == "StatelessWhile") ++out.while_ops;
  }
  for (const auto& [name, fn] : g.library())
    if (seen.insert(name).second) count_control_flow(*fn->graph, seen, out);
}

// sum_even in C++, staged as AutoGraph stages the Python one: the range's limit bounds a
// While loop whose body holds a cond (the `if`), both branches returning the new `s`.
std::shared_ptr<tfs::Function> make_sum_even() {
  return tfs::function("sum_even", {"n"}, [](Tensor n) {
    Tensor range = tfs::range(0, n, 1);  // TF keeps the Range op; the loop reads its inputs
    (void)range;
    std::vector<Tensor> init = {Tensor::scalar<int32_t>(0), Tensor::scalar<int32_t>(0)};
    auto test = [n](const std::vector<Tensor>& v) { return tfs::less(v[0], n); };
    auto body = [](const std::vector<Tensor>& v) {
      Tensor i = v[0], s = v[1];
      std::vector<Tensor> s_out = tfs::cond(
          tfs::equal(tfs::floormod(i, 2), 0), [&] { return std::vector<Tensor>{s + i}; },
          [&] { return std::vector<Tensor>{s}; });
      return std::vector<Tensor>{i + 1, s_out[0]};
    };
    return tfs::while_loop(test, body, init)[1];
  });
}

}  // namespace

void demo_autograph(DemoContext& ctx) {
  tfs::autograph::ConversionResult r =
      tfs::autograph::convert_source(kSumEvenSource, "sum_even", "sum_even.py");
  ctx.say("AutoGraph (as TF 2.21's tf.autograph.to_code) turns the `for` over tf.range into");
  ctx.say("ag__.for_stmt and the `if` into ag__.if_stmt; `tfscope autograph FILE.py:FUNC` prints");
  ctx.say("this for any function:");
  ctx.say("");
  ctx.say(r.diff);

  auto sum_even = make_sum_even();
  Tensor n = Tensor::scalar<int32_t>(10);
  tfs::Value out = sum_even->call({n});
  auto cf = sum_even->concrete_functions().at(0);
  ControlFlowOps ops;
  std::set<std::string> seen;
  count_control_flow(*cf->graph(), seen, ops);
  ctx.say("The same function in C++ with tfs::while_loop and tfs::cond, through tfs::function:");
  ctx.say("  sum_even(10) -> " + out.as_tensor().str());
  ctx.say("  If/StatelessIf ops: " + std::to_string(ops.if_ops) +
          ", While/StatelessWhile ops: " + std::to_string(ops.while_ops) +
          " (graph and library; TF 2.21 builds the same for the Python function)");
  ctx.result["converted_lines"] = r.converted_lines();
  ctx.result["if_ops"] = ops.if_ops;
  ctx.result["while_ops"] = ops.while_ops;
}

}  // namespace tfscope_cli
