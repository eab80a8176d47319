// The demo runner: the section table, output capture, and the `demo` subcommand.
#include "demo.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "commands.h"
#include "tfscope/errors.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"

namespace tfscope_cli {

void DemoContext::say(const std::string& line) {
  if (!json) text += line + "\n";
}

const std::vector<DemoSection>& demo_sections() {
  static const std::vector<DemoSection> sections = {
      {"scaled", "The seed: 4 calls of `scaled`, 3 traces", demo_scaled},
      {"reduce_retracing", "reduce_retracing=True: shapes relax, literals never do",
       demo_reduce_retracing},
      {"stabilized", "stabilize(centered, [TensorSpec([None], float32)]): one trace",
       demo_stabilized},
      {"captured_global", "The captured-global trap: host values are baked in at trace time",
       demo_captured_global},
      {"list_append", "The list-append trap: host side effects run once per trace",
       demo_list_append},
      {"variable_counter", "A Variable counter: assign_add runs every call", demo_variable_counter},
      {"report", "GraphReport of scaled's first concrete function", demo_report},
      {"autograph", "AutoGraph: a tensor `for` and `if` become While and If ops", demo_autograph},
      {"savedmodel", "SavedModel: save the MLP, load it back, outputs bit-exact", demo_savedmodel},
      {"tflite", "convert_tflite_dynamic: int8 weights, and what they changed", demo_tflite},
      {"training", "A training loop: a Python-int step traces 100 times, tf.constant(step) once",
       demo_training},
      {"bert", "BERT-tiny: trained on a generated pair task, inspected, saved, quantized",
       demo_bert},
  };
  return sections;
}

namespace {

// Routes tfs::print and retracing warnings into the running section for its lifetime.
class CaptureOutput {
 public:
  explicit CaptureOutput(DemoContext& ctx) {
    tfs::set_print_sink([&ctx](const std::string& stream, const std::string& text) {
      std::string line = text;
      if (!line.empty() && line.back() == '\n') line.pop_back();
      ctx.printed.emplace_back(stream, line);
      ctx.say("    tfs::print -> " + stream + ": " + line);
    });
    tfs::set_warning_sink([&ctx](const std::string& msg) {
      ctx.warnings.push_back(msg);
      ctx.say("    WARNING:tensorflow:" + msg);
    });
  }
  ~CaptureOutput() {
    tfs::set_print_sink(nullptr);
    tfs::set_warning_sink(nullptr);
  }
  CaptureOutput(const CaptureOutput&) = delete;
  CaptureOutput& operator=(const CaptureOutput&) = delete;
};

}  // namespace

int run_demo(bool json, const std::vector<std::string>& only) {
  nlohmann::ordered_json all = nlohmann::ordered_json::object();
  bool first = true;
  for (const DemoSection& s : demo_sections()) {
    if (!only.empty() && std::find(only.begin(), only.end(), s.key) == only.end()) continue;
    DemoContext ctx;
    ctx.json = json;
    ctx.result = nlohmann::ordered_json::object();
    {
      CaptureOutput capture(ctx);
      s.run(ctx);
    }
    if (json) {
      all[s.key] = std::move(ctx.result);
    } else {
      std::printf("%s== %s ==\n%s", first ? "" : "\n", s.title, ctx.text.c_str());
      first = false;
    }
  }
  if (json) {
    std::printf("%s\n", all.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  }
  std::fflush(stdout);
  return 0;
}

void add_demo_command(CLI::App& app, Action& action) {
  struct Options {
    bool json = false;
    std::vector<std::string> only;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "demo",
      "Tell the seeds' story with the C++ API: traces, retraces and why, side effects, "
      "signatures, variables, and a GraphReport");
  cmd->add_flag("--json", opts->json, "Print one JSON object keyed by section instead of text");
  std::vector<std::string> keys;
  for (auto& s : demo_sections()) keys.push_back(s.key);
  cmd->add_option("--only", opts->only, "Run only these sections")
      ->check(CLI::IsMember(keys))
      ->delimiter(',');
  cmd->callback([opts, &action] { action = [opts] { return run_demo(opts->json, opts->only); }; });
}

}  // namespace tfscope_cli
