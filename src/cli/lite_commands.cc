// `tfscope convert SAVEDMODEL -o OUT.tflite [--dynamic-range]`: a SavedModel signature converted
// to TFLite as TF 2.21's TFLiteConverter does it. With --dynamic-range the file written is the
// int8-weights model, and the delta report says what quantization changed against the float
// model on seeded random probes.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

#include "commands.h"
#include "tfscope/lite.h"

namespace tfscope_cli {
namespace {

struct ConvertOptions {
  std::string saved_model;
  std::string out;
  bool dynamic_range = false;
  bool json = false;
  std::string signature = "serving_default";
  int probes = 16;
  uint64_t seed = 0;
};

// -o must name a file to write, and not one of the input SavedModel's own files (writing the
// .tflite over saved_model.pb would destroy the model being converted).
void check_output(const std::string& saved_model, const std::string& out) {
  namespace fs = std::filesystem;
  if (out.empty())
    throw std::runtime_error("[convert] -o is empty; give the .tflite file to write");
  std::error_code ec;
  if (fs::is_directory(out, ec))
    throw std::runtime_error("[convert] " + out +
                             ": is a directory; -o takes the .tflite file to write");
  const fs::path model = fs::weakly_canonical(saved_model, ec);
  if (ec) return;  // the reader reports a missing model
  const fs::path target = fs::weakly_canonical(out, ec);
  if (ec) return;
  const fs::path rel = target.lexically_relative(model);
  static const std::set<std::string> kModelEntries = {"saved_model.pb", "saved_model.pbtxt",
                                                      "fingerprint.pb", "variables",
                                                      "assets",         "assets.extra"};
  if (!rel.empty() && kModelEntries.count(rel.begin()->string())) {
    throw std::runtime_error("[convert] " + out + ": is a file of the input SavedModel " +
                             saved_model + "; write the .tflite elsewhere");
  }
}

int run_convert(const ConvertOptions& o) {
  check_output(o.saved_model, o.out);
  tfs::lite::ConvertOptions opts;
  opts.signature_key = o.signature;
  if (!o.dynamic_range) {
    std::string model = tfs::lite::convert_saved_model(o.saved_model, opts);
    tfs::lite::write_model_file(o.out, model);
    if (o.json) {
      std::printf("{\"out\": \"%s\", \"bytes\": %zu, \"dynamic_range\": false}\n", o.out.c_str(),
                  model.size());
    } else {
      std::printf("wrote %s (%zu bytes, float32); `tfscope inspect %s` shows its tensors and ops\n",
                  o.out.c_str(), model.size(), o.out.c_str());
    }
    return 0;
  }
  tfs::lite::DeltaReport r =
      tfs::lite::convert_saved_model_dynamic(o.saved_model, o.probes, o.seed, o.signature);
  tfs::lite::write_model_file(o.out, r.int8_model);
  if (o.json) {
    std::printf("%s\n", r.json().c_str());
  } else {
    std::printf("wrote %s (%zu bytes, dynamic-range int8 weights)\n%s", o.out.c_str(), r.int8_bytes,
                r.text().c_str());
  }
  return 0;
}

}  // namespace

void add_convert_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<ConvertOptions>();
  CLI::App* cmd = app.add_subcommand(
      "convert",
      "Convert a SavedModel signature to a .tflite model as TF 2.21's TFLiteConverter does; "
      "--dynamic-range quantizes weights to int8 and reports the output delta");
  cmd->add_option("saved_model", opts->saved_model, "SavedModel directory")->required();
  cmd->add_option("-o,--output", opts->out, "The .tflite file to write")->required();
  cmd->add_flag("--dynamic-range", opts->dynamic_range,
                "Optimize.DEFAULT without a dataset: int8 weights (>= 1024 elements), float "
                "activations; prints the delta report");
  cmd->add_option("--signature", opts->signature, "Signature key")->capture_default_str();
  cmd->add_option("--probes", opts->probes, "Random probe inputs for the delta report")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--seed", opts->seed, "Seed of the probe inputs")->capture_default_str();
  cmd->add_flag("--json", opts->json, "Print the report as JSON");
  cmd->callback([opts, &action] { action = [opts] { return run_convert(*opts); }; });
}

}  // namespace tfscope_cli
