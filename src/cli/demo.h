// `tfscope demo`: the seeds' story told with the C++ API, one section per lesson. Each section
// writes its narrative (text mode) and fills its own JSON object (--json mode); the demo prints
// either the narratives in order or one JSON object keyed by section.
//
// Adding a section: write `void demo_<key>(DemoContext&)` in a demo_<area>.cc file, declare it
// below, and add one line to the table in demo.cc.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tfscope_cli {

struct DemoContext {
  bool json = false;
  std::string text;               // this section's narrative (text mode)
  nlohmann::ordered_json result;  // this section's JSON object

  // A narrative line (ignored in JSON mode).
  void say(const std::string& line);
  // What tfs::print wrote (stream, line) while this section ran, in order; the demo captures
  // tf.print output instead of letting it reach the process's stderr.
  std::vector<std::pair<std::string, std::string>> printed;
  // Frequent-retracing warnings emitted while this section ran.
  std::vector<std::string> warnings;
};

struct DemoSection {
  const char* key;    // the JSON key and --only name
  const char* title;  // the heading in text mode
  void (*run)(DemoContext&);
};

const std::vector<DemoSection>& demo_sections();

// Runs the chosen sections (all when `only` is empty); prints text or one JSON object to stdout.
int run_demo(bool json, const std::vector<std::string>& only);

// Sections of the function engine (demo_function.cc).
void demo_scaled(DemoContext& ctx);
void demo_reduce_retracing(DemoContext& ctx);
void demo_stabilized(DemoContext& ctx);
void demo_captured_global(DemoContext& ctx);
void demo_list_append(DemoContext& ctx);
void demo_variable_counter(DemoContext& ctx);
void demo_report(DemoContext& ctx);

// AutoGraph: the converter's diff and the same control flow in C++ (demo_autograph.cc).
void demo_autograph(DemoContext& ctx);

// The SavedModel roundtrip (demo_savedmodel.cc).
void demo_savedmodel(DemoContext& ctx);
// TFLite export and dynamic-range quantization (demo_tflite.cc).
void demo_tflite(DemoContext& ctx);
// The training loop's Python-int step bug and its fix (demo_training.cc).
void demo_training(DemoContext& ctx);
// BERT-tiny end to end, run from the Python package where the model is defined (demo_bert.cc).
void demo_bert(DemoContext& ctx);

}  // namespace tfscope_cli
