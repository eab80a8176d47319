// `tfscope inspect PATH [--json | --dot]`: what a model file holds. A SavedModel directory (or its
// saved_model.pb) prints each signature's inputs and outputs and a GraphReport per function: the
// signatures as tfscope loads them, then the library functions they call. A `.tflite` file goes
// to the TFLite inspector when the lite layer is built.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "commands.h"
#include "tfscope/saved_model.h"
#if __has_include("tfscope/lite_inspect.h") && defined(TFSCOPE_HAVE_LITE)
#include "tfscope/lite_inspect.h"
#define TFSCOPE_CLI_HAS_LITE 1
#endif

namespace tfscope_cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

struct InspectOptions {
  std::string path;
  bool json = false;
  bool dot = false;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string tensor_text(const tfs::saved_model::SignatureTensor& t) {
  return t.key + ": " + std::string(tfs::dtype_name(t.dtype)) + " " + t.shape.str() + " (" +
         t.tensor + ")";
}

ordered_json tensors_json(const std::vector<tfs::saved_model::SignatureTensor>& ts) {
  ordered_json j = ordered_json::object();
  for (const auto& t : ts) {
    j[t.key] = {{"tensor", t.tensor},
                {"dtype", std::string(tfs::dtype_name(t.dtype))},
                {"shape", t.shape.str()}};
  }
  return j;
}

int inspect_saved_model(const InspectOptions& opts, std::string dir) {
  if (fs::path(dir).filename() == tfs::savedmodel::kSavedModelFilename)
    dir = fs::path(dir).parent_path().string();
  auto model = tfs::saved_model::load(dir);
  if (opts.dot) {
    for (const auto& [key, sig] : model->signatures())
      std::fputs(sig.report().dot().c_str(), stdout);
    for (const auto& [name, fn] : model->library())
      std::fputs(tfs::report_function(*fn).dot().c_str(), stdout);
    return 0;
  }
  if (opts.json) {
    ordered_json j;
    j["path"] = dir;
    j["format"] = model->format();
    j["signatures"] = ordered_json::object();
    for (const auto& [key, sig] : model->signatures()) {
      j["signatures"][key] = {{"inputs", tensors_json(sig.inputs())},
                              {"outputs", tensors_json(sig.outputs())},
                              {"report", ordered_json::parse(sig.report().json())}};
    }
    j["variables"] = ordered_json::object();
    for (const auto& [key, var] : model->variables()) {
      j["variables"][key] = {{"dtype", std::string(tfs::dtype_name(var->dtype()))},
                             {"shape", var->shape().str()}};
    }
    j["functions"] = ordered_json::object();
    for (const auto& [name, fn] : model->library())
      j["functions"][name] = ordered_json::parse(tfs::report_function(*fn).json());
    std::printf("%s\n", j.dump(2, ' ', false, ordered_json::error_handler_t::replace).c_str());
    return 0;
  }
  std::string s = "SavedModel " + dir + " (" + model->format() +
                  " form): " + std::to_string(model->signatures().size()) + " signature(s), " +
                  std::to_string(model->variables().size()) + " variable(s), " +
                  std::to_string(model->library().size()) + " library function(s) used\n";
  for (const auto& [key, sig] : model->signatures()) {
    s += "\nsignature '" + key + "'\n  inputs:\n";
    for (const auto& t : sig.inputs()) s += "    " + tensor_text(t) + "\n";
    s += "  outputs:\n";
    for (const auto& t : sig.outputs()) s += "    " + tensor_text(t) + "\n";
    s += sig.report().text();
  }
  if (!model->variables().empty()) {
    s += "\nvariables:\n";
    for (const auto& [key, var] : model->variables())
      s += "  " + key + ": " + std::string(tfs::dtype_name(var->dtype())) + " " +
           var->shape().str() + "\n";
  }
  for (const auto& [name, fn] : model->library()) s += "\n" + tfs::report_function(*fn).text();
  std::fputs(s.c_str(), stdout);
  return 0;
}

int run_inspect(const InspectOptions& opts) {
  if (opts.json && opts.dot)
    throw std::runtime_error("[inspect] --json and --dot exclude each other");
  std::error_code ec;
  if (!fs::exists(opts.path, ec))
    throw std::runtime_error("[inspect] " + opts.path + ": no such file or directory");
  if (ends_with(opts.path, ".tflite")) {
#ifdef TFSCOPE_CLI_HAS_LITE
    if (opts.dot) throw std::runtime_error("[inspect] " + opts.path + ": --dot is for SavedModels");
    std::fputs(tfs::lite::inspect_report(opts.path, opts.json).c_str(), stdout);
    return 0;
#else
    throw std::runtime_error("[inspect] " + opts.path + ": this build has no TFLite support");
#endif
  }
  if (fs::is_directory(opts.path, ec) ||
      fs::path(opts.path).filename() == tfs::savedmodel::kSavedModelFilename)
    return inspect_saved_model(opts, opts.path);
  throw std::runtime_error("[inspect] " + opts.path +
                           ": not a SavedModel directory or a .tflite file");
}

}  // namespace

void add_inspect_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<InspectOptions>();
  CLI::App* cmd = app.add_subcommand(
      "inspect",
      "Print a SavedModel's signatures and a GraphReport per function (or a .tflite model's "
      "tensors and operators)");
  cmd->add_option("path", opts->path, "SavedModel directory, its saved_model.pb, or MODEL.tflite")
      ->required();
  cmd->add_flag("--json", opts->json, "Print one JSON object");
  cmd->add_flag("--dot", opts->dot, "Print Graphviz DOT, one digraph per function");
  cmd->callback([opts, &action] { action = [opts] { return run_inspect(*opts); }; });
}

}  // namespace tfscope_cli
