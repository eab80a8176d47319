// The demo's SavedModel section: the lab's MLP (Dense 4 -> 8 relu -> 3, seeded tf.Variables, an
// input signature) saved with tfs::saved_model::save to a temporary directory, loaded back with
// tfs::saved_model::load, and run on probe batches: outputs must be bit-identical.
#include <unistd.h>

#include <cstdint>
#include <filesystem>

#include "demo.h"
#include "tfscope/saved_model.h"
#include "tfscope/variable.h"

namespace tfscope_cli {
namespace {

using tfs::DType;
using tfs::PartialShape;
using tfs::Shape;
using tfs::Tensor;
using tfs::Value;

// Deterministic values in [-1, 1) from a 32-bit LCG: the same weights in every build.
std::vector<float> seeded(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / static_cast<float>(1u << 23) - 1.0f;
  }
  return v;
}

// Removes the demo's temporary directory however the section ends.
struct TempDir {
  std::filesystem::path path;
  TempDir()
      : path(std::filesystem::temp_directory_path() /
             ("tfscope_demo_savedmodel_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

void demo_savedmodel(DemoContext& ctx) {
  auto w1 = std::make_shared<tfs::Variable>(Tensor::from_vector(seeded(32, 42), Shape{4, 8}), "w1");
  auto b1 = std::make_shared<tfs::Variable>(Tensor::from_vector(seeded(8, 43), Shape{8}), "b1");
  auto w2 = std::make_shared<tfs::Variable>(Tensor::from_vector(seeded(24, 44), Shape{8, 3}), "w2");
  auto b2 = std::make_shared<tfs::Variable>(Tensor::from_vector(seeded(3, 45), Shape{3}), "b2");
  tfs::FunctionOptions opts;
  opts.input_signature = std::vector<Value>{tfs::TensorSpec(PartialShape{-1, 4}, DType::kFloat32)};
  auto mlp = tfs::function(
      "mlp", {"x"},
      [=](Tensor x) {
        Tensor h = tfs::relu(tfs::matmul(x, w1->read_value()) + Value(b1->read_value()));
        return tfs::matmul(h, w2->read_value()) + Value(b2->read_value());
      },
      opts);
  std::vector<std::vector<Tensor>> probes;
  for (int rows : {1, 4, 16}) {
    probes.push_back({Tensor::from_vector(
        seeded(static_cast<size_t>(rows) * 4, 100u + static_cast<uint32_t>(rows)),
        Shape{rows, 4})});
  }
  TempDir dir;
  auto report = tfs::saved_model::roundtrip_savedmodel(*mlp, probes, (dir.path / "mlp").string());
  ctx.say(
      "mlp: Dense 4->8 relu ->3 with 4 tf.Variables, input_signature [TensorSpec((None, 4), "
      "float32)]");
  ctx.say("tfs::saved_model::save -> " + report.dir);
  for (const auto& f : report.files) ctx.say("  " + f);
  ctx.say("tfs::saved_model::load: signatures " + [&] {
    std::string s;
    for (const auto& k : report.signatures) s += (s.empty() ? "" : ", ") + k;
    return s;
  }());
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", report.max_abs_delta);
  ctx.say("probe batches " + std::to_string(report.probes) + " (1, 4 and 16 rows): max |delta| " +
          buf + (report.exact ? ", bit-exact" : ", NOT bit-exact"));
  ctx.result["exact"] = report.exact;
  ctx.result["max_abs_delta"] = report.max_abs_delta;
  ctx.result["files"] = report.files;
  ctx.result["signatures"] = report.signatures;
  ctx.result["probes"] = report.probes;
}

}  // namespace tfscope_cli
