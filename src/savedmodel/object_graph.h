// The object graph of a TF 2 SavedModel (SavedObjectGraph) as tf.saved_model.load rebuilds it:
// user objects, variables, functions with their concrete functions, constants, assets; and the
// directory's fingerprint.pb.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "graph_convert.h"
#include "tfscope/proto/meta_graph.pb.h"
#include "tfscope/saved_model.h"

namespace tfs::saved_model::detail {

class ObjectGraphLoader {
 public:
  ObjectGraphLoader(const tensorflow::MetaGraphDef& mg, std::string dir, std::string file,
                    savedmodel::detail::FunctionImporter& fns,
                    std::shared_ptr<FunctionLibrary> library);
  // Fills out.objects_ and out.concrete_functions_; `variable(id)` restores node id's variable.
  void run(LoadedModel& out, const std::function<std::shared_ptr<VariableState>(int)>& variable);

 private:
  [[noreturn]] void fail(const std::string& what) const;
  std::shared_ptr<LoadedConcreteFunction> concrete(const std::string& name, LoadedModel& out);

  const tensorflow::MetaGraphDef& mg_;
  std::string dir_;
  std::string file_;
  savedmodel::detail::FunctionImporter& fns_;
  std::shared_ptr<FunctionLibrary> library_;
};

// fingerprint.pb of `dir`, or nothing when it has none; a damaged one is a FormatError.
std::optional<Fingerprint> read_fingerprint(const std::string& dir);

}  // namespace tfs::saved_model::detail
