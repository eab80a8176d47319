// Demo sections for the tf.function engine: the seeds' programs written with the C++ API. Every
// number a section states (trace counts, results, op counts) is what TF 2.21 gives for the same
// Python program (conformance/expected_tf.json).
#include <memory>
#include <string>
#include <vector>

#include "demo.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/variable.h"

namespace tfscope_cli {

using tfs::Tensor;
using tfs::Value;

namespace {

Tensor ints(std::vector<int32_t> v) {
  return Tensor::from_vector<int32_t>(v);
}
Tensor floats(std::vector<float> v) {
  return Tensor::from_vector<float>(v);
}

// The seed function: host code (the TRACE line) runs while tracing; tfs::print every call.
std::shared_ptr<tfs::Function> make_scaled(DemoContext& ctx, std::vector<std::string>& trace_lines,
                                           tfs::FunctionOptions options = {}) {
  return tfs::function(
      "scaled", {"x", "factor"},
      [&ctx, &trace_lines](Tensor x, Value factor) {
        std::string line = "TRACE " + x.shape().str() + " " + factor.str();
        trace_lines.push_back(line);
        ctx.say("    print (host code, trace time): " + line);
        tfs::print({Value("RUN"), Value(tfs::shape(x)), factor});
        return tfs::multiply(x, factor);
      },
      std::move(options));
}

std::string show_args(const std::vector<Value>& args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) {
    const Value& v = args[i];
    s += (i ? ", " : "") + (v.is_tensor() ? v.as_tensor().numpy_str() : v.repr());
  }
  return s;
}

// Calls fn, narrating the call, its result and whether it traced (and why).
Value narrate_call(DemoContext& ctx, tfs::Function& fn, const std::vector<Value>& args,
                   nlohmann::ordered_json* results = nullptr) {
  ctx.say(fn.name() + "(" + show_args(args) + ")");
  Value out = fn.call(args);
  const tfs::LedgerEntry last = fn.ledger().entries.back();
  std::string shown = out.is_tensor() ? out.as_tensor().str() : out.repr();
  ctx.say("  -> " + shown + "   [" +
          (last.traced ? "traced: " + last.reason : "hit " + last.concrete_function) + "]");
  if (results) results->push_back(shown);
  return out;
}

nlohmann::ordered_json ledger_json(const tfs::Function& fn) {
  return nlohmann::ordered_json::parse(fn.ledger().json());
}

nlohmann::ordered_json traced_reasons(const tfs::Function& fn) {
  nlohmann::ordered_json r = nlohmann::ordered_json::array();
  for (auto& e : fn.ledger().entries)
    if (e.traced) r.push_back(e.reason);
  return r;
}

std::vector<std::string> printed_lines(const DemoContext& ctx) {
  std::vector<std::string> out;
  for (auto& [stream, line] : ctx.printed) out.push_back(line);
  return out;
}

}  // namespace

void demo_scaled(DemoContext& ctx) {
  std::vector<std::string> trace_lines;
  auto scaled = make_scaled(ctx, trace_lines);
  Tensor a = ints({1, 2}), b = ints({8, 9}), c = ints({1, 2, 3, 4});
  ctx.say("a = [1 2], b = [8 9], c = [1 2 3 4] (int32)");
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  narrate_call(ctx, *scaled, {a, 2}, &results);
  narrate_call(ctx, *scaled, {b, 2}, &results);
  narrate_call(ctx, *scaled, {c, 2}, &results);
  narrate_call(ctx, *scaled, {c, 3}, &results);
  tfs::CallLedger ledger = scaled->ledger();
  ctx.say("");
  ctx.say("print ran " + std::to_string(trace_lines.size()) + " times (once per trace), " +
          "tfs::print " + std::to_string(ctx.printed.size()) + " times (every call).");
  ctx.say("experimental_get_tracing_count() = " +
          std::to_string(scaled->experimental_get_tracing_count()));
  ctx.say("");
  ctx.say("The call ledger:");
  ctx.say(ledger.text());
  ctx.say("Concrete signatures:");
  ctx.say(scaled->pretty_printed_concrete_signatures(false));
  ctx.result["calls"] = ledger.calls();
  ctx.result["traces"] = ledger.traces();
  ctx.result["reasons"] = traced_reasons(*scaled);
  ctx.result["tracing_count"] = scaled->experimental_get_tracing_count();
  ctx.result["results"] = results;
  ctx.result["trace_lines"] = trace_lines;
  ctx.result["run_lines"] = printed_lines(ctx);
  ctx.result["signatures"] = scaled->pretty_printed_concrete_signatures(false);
  ctx.result["ledger"] = ledger_json(*scaled);
}

void demo_reduce_retracing(DemoContext& ctx) {
  std::vector<std::string> trace_lines;
  tfs::FunctionOptions options;
  options.reduce_retracing = true;
  // Another `def` in TF, so another frequent-retracing detector.
  options.detector_key = "scaled (reduce_retracing)";
  auto scaled = make_scaled(ctx, trace_lines, options);
  Tensor a = ints({1, 2}), b = ints({8, 9}), c = ints({1, 2, 3, 4});
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  narrate_call(ctx, *scaled, {a, 2}, &results);
  narrate_call(ctx, *scaled, {b, 2}, &results);
  narrate_call(ctx, *scaled, {c, 2}, &results);
  narrate_call(ctx, *scaled, {c, 3}, &results);
  narrate_call(ctx, *scaled, {ints({1, 2, 3}), 2}, &results);
  ctx.say("");
  ctx.say("Still 3 traces: the second generalized x to (None,), which then serves length 3; the");
  ctx.say("Python literal 3 matches no earlier trace, so nothing relaxes and (4,) is traced.");
  ctx.say(scaled->pretty_printed_concrete_signatures(false));
  tfs::CallLedger ledger = scaled->ledger();
  ctx.result["calls"] = ledger.calls();
  ctx.result["traces"] = ledger.traces();
  ctx.result["reasons"] = traced_reasons(*scaled);
  ctx.result["trace_lines"] = trace_lines;
  ctx.result["results"] = results;
  ctx.result["signatures"] = scaled->pretty_printed_concrete_signatures(false);
}

void demo_stabilized(DemoContext& ctx) {
  auto centered =
      tfs::function("centered", {"x"}, [](Tensor x) { return x - Value(tfs::reduce_mean(x)); });
  ctx.say("Without a signature, every new length traces:");
  narrate_call(ctx, *centered, {floats({1, 3})});
  narrate_call(ctx, *centered, {floats({1, 3, 5})});
  auto stable = tfs::stabilize(*centered, {Value(tfs::TensorSpec({-1}, tfs::DType::kFloat32))});
  ctx.say("");
  ctx.say("stabilize(centered, [TensorSpec(shape=(None,), dtype=tf.float32)]):");
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  narrate_call(ctx, *stable, {floats({1, 3})}, &results);
  narrate_call(ctx, *stable, {floats({1, 3, 5})}, &results);
  std::string rejected;
  Tensor rank2 = Tensor::from_vector<float>({1, 2}, tfs::Shape{1, 2});
  ctx.say("centered(" + rank2.numpy_str() + ")");
  try {
    stable->call({rank2});
  } catch (const tfs::Error& e) {
    rejected = std::string(e.python_type()) + ": " + e.what();
    ctx.say("  -> " + rejected);
  }
  tfs::CallLedger ledger = stable->ledger();
  ctx.say("");
  ctx.say("Lengths 2 and 3 share one trace: " + stable->pretty_printed_concrete_signatures(false));
  ctx.result["unstabilized_traces"] = centered->experimental_get_tracing_count();
  ctx.result["calls"] = ledger.calls();
  ctx.result["traces"] = ledger.traces();
  ctx.result["results"] = results;
  ctx.result["rejected"] = rejected;
  ctx.result["signature"] = stable->pretty_printed_concrete_signatures(false);
}

void demo_captured_global(DemoContext& ctx) {
  int foo = 1;  // what Python calls a global: read by host code while tracing
  auto buggy_add = tfs::function("buggy_add", {}, [&foo]() { return Value(1 + foo); });
  ctx.say("foo = 1");
  Value first = narrate_call(ctx, *buggy_add, {});
  foo = 100;
  ctx.say("foo = 100");
  Value second = narrate_call(ctx, *buggy_add, {});
  ctx.say("Did not change: the value of foo was baked into the graph as a constant when it was");
  ctx.say("traced, and a host value is not part of the cache key, so nothing retraced.");
  ctx.result["before"] = first.as_tensor().item<int64_t>();
  ctx.result["after"] = second.as_tensor().item<int64_t>();
  ctx.result["traces"] = buggy_add->experimental_get_tracing_count();
}

void demo_list_append(DemoContext& ctx) {
  std::vector<Tensor> external_list;
  auto side_effect = tfs::function("side_effect", {"x"}, [&external_list](Tensor x) {
    external_list.push_back(x * 2);  // host code: runs once, at trace time
    return x;
  });
  for (int i = 0; i < 3; ++i) narrate_call(ctx, *side_effect, {Tensor::scalar<int32_t>(i)});
  ctx.say("len(external_list) = " + std::to_string(external_list.size()) +
          " after 3 calls, and what it holds is a symbolic tensor leaked from the trace:");
  ctx.say("  " + external_list.at(0).str());
  ctx.result["calls"] = 3;
  ctx.result["traces"] = side_effect->experimental_get_tracing_count();
  ctx.result["list_length"] = external_list.size();
  ctx.result["leaked"] = external_list.at(0).str();
}

void demo_variable_counter(DemoContext& ctx) {
  int py_counter = 0;
  tfs::Variable v_counter(Value(0));
  auto step = tfs::function("step", {"x"}, [&py_counter, &v_counter](Tensor x) {
    py_counter += 1;          // host code: once per trace
    v_counter.assign_add(1);  // an op: every call
    return x * 2;
  });
  for (int i = 0; i < 4; ++i) narrate_call(ctx, *step, {Tensor::scalar<float>(float(i))});
  int64_t v = v_counter.numpy().item<int64_t>();
  ctx.say("py_counter = " + std::to_string(py_counter) + ", v_counter = " + std::to_string(v));
  auto cf = step->concrete_functions().at(0);
  std::string ops;
  for (auto& [op, n] : cf->graph()->op_counts())
    ops += (ops.empty() ? "" : ", ") + op + " " + std::to_string(n);
  ctx.say("step's graph: " + ops);
  ctx.result["calls"] = 4;
  ctx.result["traces"] = step->experimental_get_tracing_count();
  ctx.result["py_counter"] = py_counter;
  ctx.result["v_counter"] = v;
  ctx.result["op_counts"] = cf->graph()->op_counts();
}

void demo_report(DemoContext& ctx) {
  std::vector<std::string> trace_lines;
  DemoContext quiet;  // the trace's own narration belongs to the scaled section
  quiet.json = true;
  tfs::FunctionOptions options;
  options.detector_key = "scaled (report)";
  auto scaled = make_scaled(quiet, trace_lines, options);
  auto cf = scaled->get_concrete_function({ints({1, 2}), 2});
  tfs::GraphReport report = cf->report();
  ctx.say(report.text());
  ctx.result = nlohmann::ordered_json::parse(report.json());
}

}  // namespace tfscope_cli
