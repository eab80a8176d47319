// convert_saved_model: a SavedModel signature (as tfs::saved_model::load reads it, TF-written or
// tfscope-written) converted like a ConcreteFunction; its variables are read and frozen.
#include "lite_model.h"
#include "tfscope/saved_model.h"

namespace tfs::lite {

std::string convert_saved_model(const std::string& dir, const ConvertOptions& options) {
  auto model = saved_model::load(dir);
  const saved_model::LoadedSignature& sig = model->signature(options.signature_key);
  detail::GraphSource src;
  const GraphFunction& fn = sig.function();
  src.fn = &fn;
  src.library = &model->library();
  const size_t n_inputs = sig.inputs().size();
  if (fn.args.size() != n_inputs + sig.variables().size()) {
    throw FormatError("[lite] " + dir + ": signature " + sig.key() + " has " +
                      std::to_string(fn.args.size()) + " arguments for " +
                      std::to_string(n_inputs) + " inputs and " +
                      std::to_string(sig.variables().size()) + " variables");
  }
  for (size_t i = 0; i < n_inputs; ++i) {
    src.inputs.push_back(fn.args[i]);
    src.input_keys.push_back(sig.inputs()[i].key);
  }
  for (size_t i = 0; i < sig.variables().size(); ++i) {
    src.resources[fn.args[n_inputs + i]] = sig.variables()[i];
  }
  for (const auto& out : sig.outputs()) src.output_keys.push_back(out.key);
  return detail::serialize(detail::build_model(src, options));
}

DeltaReport convert_saved_model_dynamic(const std::string& dir, int probes, uint64_t seed,
                                        const std::string& signature_key) {
  ConvertOptions opts;
  opts.signature_key = signature_key;
  std::string float_model = convert_saved_model(dir, opts);
  opts.dynamic_range = true;
  std::string int8_model = convert_saved_model(dir, opts);
  return compare_models(float_model, int8_model, probes, seed);
}

}  // namespace tfs::lite
