// roundtrip_savedmodel: save, load, run both, compare bit for bit.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tfscope/saved_model.h"

namespace tfs::saved_model {

namespace fs = std::filesystem;

namespace {

// Largest |a - b| over the elements (0 for strings that are equal, inf otherwise); NaNs in the
// same place count as equal.
double max_delta(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.eager_shape() != b.eager_shape()) return INFINITY;
  if (a.dtype() == DType::kString) return a.string_values() == b.string_values() ? 0.0 : INFINITY;
  double m = 0.0;
  visit_dtype(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* x = a.data<T>();
    const T* y = b.data<T>();
    for (int64_t i = 0; i < a.num_elements(); ++i) {
      double dx = static_cast<double>(x[i]), dy = static_cast<double>(y[i]);
      if (std::isnan(dx) && std::isnan(dy)) continue;
      double d = std::fabs(dx - dy);
      if (std::isnan(d)) d = INFINITY;
      m = std::max(m, d);
    }
  });
  return m;
}

bool bit_equal(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.eager_shape() != b.eager_shape()) return false;
  if (a.dtype() == DType::kString) return a.string_values() == b.string_values();
  return a.nbytes() == b.nbytes() && std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

std::vector<std::string> list_files(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

RoundtripReport roundtrip_savedmodel(const ConcreteFunction& fn,
                                     const std::vector<std::vector<Tensor>>& probe_inputs,
                                     const std::string& dir) {
  save(fn, dir);
  RoundtripReport r;
  r.dir = dir;
  r.files = list_files(dir);
  auto model = load(dir);
  for (const auto& [k, s] : model->signatures()) r.signatures.push_back(k);
  const LoadedSignature& sig = model->signature("serving_default");
  // Loaded inputs are keyed by the original's argument placeholder names; outputs by
  // signature_output_keys.
  std::vector<std::string> in_names;
  for (const Tensor& t : fn.inputs()) in_names.push_back(t.node()->name);
  const std::vector<std::string> out_keys = signature_output_keys(fn);
  for (const auto& probe : probe_inputs) {
    std::vector<Tensor> want = fn.run_flat(probe);
    NamedTensors feeds;
    for (size_t i = 0; i < probe.size() && i < in_names.size(); ++i)
      feeds.emplace_back(in_names[i], probe[i]);
    NamedTensors got = sig.call(feeds);
    for (size_t i = 0; i < want.size(); ++i) {
      auto it =
          std::find_if(got.begin(), got.end(), [&](auto& p) { return p.first == out_keys[i]; });
      if (it == got.end()) {
        r.exact = false;
        r.max_abs_delta = INFINITY;
        continue;
      }
      r.max_abs_delta = std::max(r.max_abs_delta, max_delta(want[i], it->second));
      r.exact = r.exact && bit_equal(want[i], it->second);
    }
    ++r.probes;
  }
  return r;
}

RoundtripReport roundtrip_savedmodel(Function& fn,
                                     const std::vector<std::vector<Tensor>>& probe_inputs,
                                     const std::string& dir) {
  std::shared_ptr<ConcreteFunction> cf;
  if (fn.options().input_signature || probe_inputs.empty()) {
    cf = fn.get_concrete_function();
  } else {
    std::vector<Value> args(probe_inputs[0].begin(), probe_inputs[0].end());
    cf = fn.get_concrete_function(args);
  }
  return roundtrip_savedmodel(*cf, probe_inputs, dir);
}

std::string RoundtripReport::json() const {
  nlohmann::ordered_json j;
  j["exact"] = exact;
  j["max_abs_delta"] = std::isfinite(max_abs_delta) ? nlohmann::ordered_json(max_abs_delta)
                                                    : nlohmann::ordered_json("inf");
  j["files"] = files;
  j["signatures"] = signatures;
  j["probes"] = probes;
  return j.dump();
}

std::string RoundtripReport::text() const {
  std::string s = "SavedModel roundtrip at " + dir + "\n  files:";
  for (const auto& f : files) s += " " + f;
  s += "\n  signatures:";
  for (const auto& k : signatures) s += " " + k;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", max_abs_delta);
  s += "\n  probes: " + std::to_string(probes) + ", max |delta|: " + buf +
       (exact ? ", bit-exact" : ", NOT bit-exact") + "\n";
  return s;
}

}  // namespace tfs::saved_model
