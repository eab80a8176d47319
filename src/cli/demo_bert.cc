// The demo's bert section: BERT-tiny trained, inspected, saved and quantized. The model, its task
// and its training are defined once, in the Python package (python/tfscope/models, the same source
// the conformance suite runs under real TF); this section runs `python -m tfscope.models.bert_demo
// --json` in the Python `tfscope watch` uses (python_finder.h) and tells what it reports.
#include <nlohmann/json.hpp>
#include <string>

#include "demo.h"
#include "python_finder.h"

namespace tfscope_cli {

void demo_bert(DemoContext& ctx) {
  std::string python;
  try {
    python = find_tfscope_python(/*source_venv=*/true);
  } catch (const std::exception& e) {
    ctx.say(std::string("  skipped: ") + e.what());
    ctx.result["error"] = e.what();
    return;
  }
  std::string out;
  const int rc = run_python_capture(python, {"-m", "tfscope.models.bert_demo", "--json"}, &out);
  nlohmann::ordered_json r;
  if (rc == 0) r = nlohmann::ordered_json::parse(out, nullptr, /*allow_exceptions=*/false);
  if (rc != 0 || !r.is_object()) {
    const std::string why =
        python + " -m tfscope.models.bert_demo --json failed (exit " + std::to_string(rc) + ")";
    ctx.say("  " + why);
    ctx.result["error"] = why;
    return;
  }
  if (r.contains("narrative")) {
    for (const auto& line : r["narrative"]) ctx.say("  " + line.get<std::string>());
    r.erase("narrative");
  }
  ctx.result = std::move(r);
}

}  // namespace tfscope_cli
