// SavedModel export and import over the Graph IR: tfs::saved_model::save writes concrete functions
// as a SavedModel that TF 2.21's tf.saved_model.load reads (one MetaGraphDef tagged "serve", a
// SignatureDef per function, variables in variables/ as a TensorBundle restored by a saver);
// tfs::saved_model::load reads those and the SavedModels TF 2.21 writes (function library,
// StatefulPartitionedCall, object graph, object-based checkpoint keys) into callable signatures
// that run on our Executor. Errors are one line: tfs::savedmodel::FormatError naming the file or
// the op.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tfscope/executor.h"
#include "tfscope/function.h"
#include "tfscope/graph_report.h"
#include "tfscope/saved_model_io.h"  // FormatError, file names

namespace tfs::saved_model {

using savedmodel::FormatError;

struct SaveOptions {
  // The key save(const ConcreteFunction&) and save(Function&) give their one signature.
  std::string signature_key = "serving_default";
};

// One signature to export: its key ("serving_default") and the function it runs.
using SignatureFunctions = std::vector<std::pair<std::string, std::shared_ptr<ConcreteFunction>>>;

// Writes `fns` as a SavedModel into `dir`, as TF's tf.saved_model.save does: `dir` may exist and
// hold other files, which stay; the model's own files (saved_model.pb, variables/variables.*)
// are replaced, an earlier fingerprint.pb removed. The files are written to a staging folder in
// `dir` first and renamed into place when all are written: on failure the earlier model stays
// whole. Errors are TF's ("<dir> is not a directory", "<path>; <strerror>"), see
// src/savedmodel/model_directory.h.
// Signature inputs are named after the function's parameters; outputs are "output_0", ... (or the
// keys of a returned dict of tensors), as TF names them.
void save(const SignatureFunctions& fns, const std::string& dir, const SaveOptions& options = {});
// One function as options.signature_key ("serving_default").
void save(const ConcreteFunction& fn, const std::string& dir, const SaveOptions& options = {});
// A Function with an input signature, or one that has traced exactly one concrete function.
void save(Function& fn, const std::string& dir, const SaveOptions& options = {});

// One object of the tree tf.saved_model.save walks from the root (node 0), as the Python layer
// finds it: a tf.Module (or a list/dict of trackables), a tf.Variable, or a tf.function with the
// concrete functions traced for saving.
struct SaveObject {
  std::string kind;  // "user_object", "variable", "function", "asset"
  std::string identifier = "_generic_user_object";    // user_object
  std::vector<std::pair<std::string, int>> children;  // local name -> index, in order
  std::shared_ptr<VariableState> variable;            // variable
  std::vector<std::shared_ptr<ConcreteFunction>> concrete_functions;  // function
  Value fullargspec;       // function: its FullArgSpec namedtuple, self dropped
  Value input_signature;   // function: None or a tuple of TensorSpecs
  std::string asset_path;  // asset: the file, copied into assets/ under its own name
};

// Writes `objects` (objects[0] the root) as a TF 2 SavedModel, as tf.saved_model.save does: the
// object graph (nodes numbered breadth-first from the root, as TF numbers them: each function's
// traces as bare concrete functions "trace_<i>", captured eager tensors as constants
// "capture_<i>", a "signatures" map on the root), every concrete function a FunctionDef, a
// signature wrapper per signature with its SignatureDef and the main graph's call, and the
// variables in an object-based checkpoint (`<path>/.ATTRIBUTES/VARIABLE_VALUE` plus
// _CHECKPOINTABLE_OBJECT_GRAPH); a fingerprint.pb with TF's fields. Same directory rules as
// save() above. A signature whose key is in `named_after_function` (signatures= gave it a
// tf.function) has its wrapper named after the function, "signature_wrapper_<fn>_<uid>"; the
// others' (a ConcreteFunction, the default export) are "signature_wrapper_<uid>", as TF names them.
void save_objects(const std::vector<SaveObject>& objects, const SignatureFunctions& signatures,
                  const std::string& dir, const std::set<std::string>& named_after_function = {});

// The output keys save() gives `fn`'s flat outputs, in order.
std::vector<std::string> signature_output_keys(const ConcreteFunction& fn);

// One named tensor of a signature.
struct SignatureTensor {
  std::string key;     // "x", "output_0"
  std::string tensor;  // the tensor it names in the MetaGraph: "serving_default_x:0"
  DType dtype = DType::kInvalid;
  PartialShape shape;
};

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// A signature of a loaded SavedModel, callable with its inputs by key.
class LoadedSignature {
 public:
  const std::string& key() const { return key_; }
  const std::vector<SignatureTensor>& inputs() const { return inputs_; }    // sorted by key
  const std::vector<SignatureTensor>& outputs() const { return outputs_; }  // sorted by key
  // The function that runs it: inputs (by key order), then variable handles.
  const GraphFunction& function() const { return *fn_; }
  // Variables it reads, in the order their handles are fed.
  const std::vector<std::shared_ptr<VariableState>>& variables() const { return variables_; }

  // Inputs by key (every input, nothing else); outputs by key, sorted.
  NamedTensors call(const NamedTensors& inputs) const;
  // Inputs in key order; outputs in key order.
  std::vector<Tensor> call_flat(const std::vector<Tensor>& inputs) const;

  GraphReport report() const;

 private:
  friend class Loader;
  std::string key_;
  std::vector<SignatureTensor> inputs_;
  std::vector<SignatureTensor> outputs_;
  std::shared_ptr<GraphFunction> fn_;
  std::shared_ptr<const FunctionLibrary> library_;
  std::vector<std::shared_ptr<VariableState>> variables_;
  std::shared_ptr<Executor> executor_;
};

// A concrete function of a TF 2 SavedModel's object graph (SavedConcreteFunction): its
// FunctionDef imported, the values its bound_inputs name (variables, constants) and its
// structured signatures.
namespace detail {
class ObjectGraphLoader;
}

class LoadedConcreteFunction {
 public:
  const std::string& name() const { return name_; }  // "__inference_f_48"
  // ((args...), {kwargs}) of TensorSpecs and the Python values the trace was specialised on.
  const Value& input_signature() const { return input_signature_; }
  const Value& output_signature() const { return output_signature_; }
  // What bound_inputs feed after the arguments (variable handles, constants), in order.
  const std::vector<Tensor>& captured_inputs() const { return captured_; }
  // Non-empty when the function could not be imported (an op tfscope lacks): the one-line
  // error a call raises.
  const std::string& import_error() const { return import_error_; }
  const GraphFunction& function() const;

  // The tensor leaves of input_signature in nest order. Eagerly it runs; while a function is
  // being traced it adds a (Stateful)PartitionedCall of it there, its captures captured, as TF
  // calls a restored concrete function.
  std::vector<Tensor> call_flat(const std::vector<Tensor>& inputs) const;

 private:
  friend class detail::ObjectGraphLoader;
  std::string name_;
  Value input_signature_;
  Value output_signature_;
  std::vector<Tensor> captured_;
  std::string import_error_;
  std::shared_ptr<const GraphFunction> fn_;
  std::shared_ptr<const FunctionLibrary> library_;
  std::shared_ptr<Executor> executor_;
};

// One node of a TF 2 SavedModel's object graph (SavedObject), as tf.saved_model.load rebuilds
// it: user objects hold children by name, functions their concrete functions.
struct LoadedObject {
  // "user_object", "variable", "function", "bare_concrete_function", "constant", "asset",
  // "resource", "captured_tensor" or "" (none set).
  std::string kind;
  std::string identifier;                             // user_object: "_generic_user_object"
  std::vector<std::pair<std::string, int>> children;  // local name -> node id, in order
  // function: its traces in the saved order; bare_concrete_function: the one.
  std::vector<std::string> concrete_functions;
  Value fullargspec;  // function / bare: the FullArgSpec namedtuple (None when absent)
  bool is_method = false;
  Value input_signature;  // function: its input_signature (None when it had none)
  std::vector<std::string> argument_keywords;  // bare_concrete_function
  int64_t allowed_positional_arguments = 0;    // bare_concrete_function
  std::shared_ptr<VariableState> variable;     // variable (restored from variables/)
  Tensor constant;                             // constant
  std::string asset_path;                      // asset: <dir>/assets/<file>
};

// fingerprint.pb (FingerprintDef), TF's fields.
struct Fingerprint {
  uint64_t saved_model_checksum = 0;
  uint64_t graph_def_program_hash = 0;
  uint64_t signature_def_hash = 0;
  uint64_t saved_object_graph_hash = 0;
  uint64_t checkpoint_hash = 0;
  int producer = 0;  // version.producer
  std::string uuid;
};

class LoadedModel {
 public:
  const std::string& dir() const { return dir_; }
  // "tf2" when the MetaGraph has an object graph (TF 2.x's tf.saved_model.save), else "tf1".
  const std::string& format() const { return format_; }
  const std::map<std::string, LoadedSignature>& signatures() const { return signatures_; }
  const LoadedSignature& signature(const std::string& key) const;
  // Variables by checkpoint key.
  const std::map<std::string, std::shared_ptr<VariableState>>& variables() const {
    return variables_;
  }
  // Functions of the MetaGraph's library that the signatures call (imported on demand).
  const FunctionLibrary& library() const { return *library_; }
  // The object graph (TF 2 form; empty for "tf1"); node 0 is the root.
  const std::vector<LoadedObject>& objects() const { return objects_; }
  const LoadedConcreteFunction& concrete_function(const std::string& name) const;
  // fingerprint.pb when the directory has one.
  const std::optional<Fingerprint>& fingerprint() const { return fingerprint_; }

 private:
  friend class Loader;
  friend class detail::ObjectGraphLoader;
  std::string dir_;
  std::string format_;
  std::map<std::string, LoadedSignature> signatures_;
  std::map<std::string, std::shared_ptr<VariableState>> variables_;
  std::shared_ptr<FunctionLibrary> library_;
  std::vector<LoadedObject> objects_;
  std::map<std::string, std::shared_ptr<LoadedConcreteFunction>> concrete_functions_;
  std::optional<Fingerprint> fingerprint_;
};

// Loads the MetaGraph tagged "serve" (or the only one) of the SavedModel at `dir`.
std::shared_ptr<LoadedModel> load(const std::string& dir);

// What roundtrip_savedmodel found.
struct RoundtripReport {
  std::string dir;
  std::vector<std::string> files;       // relative to dir, sorted
  std::vector<std::string> signatures;  // keys
  int probes = 0;
  double max_abs_delta = 0.0;
  bool exact = true;  // every output bit-identical to the original's

  std::string text() const;
  std::string json() const;  // {"exact": ..., "max_abs_delta": ..., "files": [...], ...}
};

// Saves `fn` as "serving_default" at `dir`, loads it back, runs both on each probe (flat tensor
// arguments, in the function's input order) and compares the outputs bit for bit.
RoundtripReport roundtrip_savedmodel(const ConcreteFunction& fn,
                                     const std::vector<std::vector<Tensor>>& probe_inputs,
                                     const std::string& dir);
// The concrete function for the first probe (traced if needed), then as above.
RoundtripReport roundtrip_savedmodel(Function& fn,
                                     const std::vector<std::vector<Tensor>>& probe_inputs,
                                     const std::string& dir);

}  // namespace tfs::saved_model
