// tfs::saved_model for the Python API (tfscope.saved_model): save concrete functions, load a
// SavedModel's signatures, roundtrip. The package's saved_model.py shapes these into TF's API.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/set.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/checkpoint.h"
#include "tfscope/saved_model.h"

namespace tfpy {

namespace {

namespace sm = tfs::saved_model;

// (key, tensor name, dtype, shape) per signature tensor.
nb::list tensors_py(const std::vector<sm::SignatureTensor>& ts) {
  nb::list out;
  for (const auto& t : ts)
    out.append(nb::make_tuple(t.key, t.tensor, py_dtype(t.dtype), py_shape(t.shape)));
  return out;
}

}  // namespace

void bind_savedmodel(nb::module_& m) {
  // A file that is not a SavedModel (or is damaged) is an OSError, as TF's loader raises for a
  // missing one; the message names the file.
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const tfs::savedmodel::FormatError& e) {
      set_error(PyExc_OSError, e.what());
    }
  });

  nb::class_<sm::LoadedSignature>(m, "LoadedSignatureCore")
      .def_prop_ro("key", &sm::LoadedSignature::key)
      .def_prop_ro("inputs", [](const sm::LoadedSignature& s) { return tensors_py(s.inputs()); })
      .def_prop_ro("outputs", [](const sm::LoadedSignature& s) { return tensors_py(s.outputs()); })
      // The variable handles a call feeds after the inputs (what TF's v1 loader captures).
      .def_prop_ro("captured_inputs",
                   [](const sm::LoadedSignature& s) {
                     std::vector<tfs::Tensor> out;
                     for (const auto& v : s.variables()) out.push_back(tfs::Tensor::resource(v));
                     return out;
                   })
      .def("call_flat", &sm::LoadedSignature::call_flat, nb::call_guard<nb::gil_scoped_release>())
      .def("report_text", [](const sm::LoadedSignature& s) { return s.report().text(); })
      .def("report_json", [](const sm::LoadedSignature& s) { return s.report().json(); })
      .def("report_dot", [](const sm::LoadedSignature& s) { return s.report().dot(); });

  nb::class_<sm::LoadedConcreteFunction>(m, "LoadedConcreteFunctionCore")
      .def_prop_ro("name", &sm::LoadedConcreteFunction::name)
      .def_prop_ro(
          "input_signature",
          [](const sm::LoadedConcreteFunction& f) { return from_value(f.input_signature()); })
      .def_prop_ro(
          "output_signature",
          [](const sm::LoadedConcreteFunction& f) { return from_value(f.output_signature()); })
      .def_prop_ro("captured_inputs", &sm::LoadedConcreteFunction::captured_inputs)
      .def_prop_ro("import_error", &sm::LoadedConcreteFunction::import_error)
      .def("call_flat", &sm::LoadedConcreteFunction::call_flat);

  m.def("saved_model_objects", [](const sm::LoadedModel& lm) {
    // One dict per object graph node, with what its kind carries.
    nb::list out;
    for (const auto& o : lm.objects()) {
      nb::dict d;
      d["kind"] = o.kind;
      d["identifier"] = o.identifier;
      nb::list children;
      for (const auto& [name, id] : o.children) children.append(nb::make_tuple(name, id));
      d["children"] = children;
      d["concrete_functions"] = o.concrete_functions;
      d["fullargspec"] = from_value(o.fullargspec);
      d["is_method"] = o.is_method;
      d["input_signature"] = from_value(o.input_signature);
      d["argument_keywords"] = o.argument_keywords;
      d["allowed_positional_arguments"] = o.allowed_positional_arguments;
      d["variable"] = o.variable ? nb::cast(tfs::Variable(o.variable)) : nb::none();
      d["constant"] = o.constant.defined() ? nb::cast(o.constant) : nb::none();
      d["asset_path"] = o.asset_path;
      out.append(d);
    }
    return out;
  });

  nb::class_<sm::LoadedModel>(m, "LoadedModelCore")
      .def_prop_ro("dir", &sm::LoadedModel::dir)
      .def_prop_ro("format", &sm::LoadedModel::format)
      .def("signature_keys",
           [](const sm::LoadedModel& lm) {
             std::vector<std::string> keys;
             for (const auto& [k, s] : lm.signatures()) keys.push_back(k);
             return keys;
           })
      // The model stays alive while a signature does (keep_alive on the returned reference).
      .def("signature", &sm::LoadedModel::signature, nb::rv_policy::reference_internal)
      .def("concrete_function", &sm::LoadedModel::concrete_function,
           nb::rv_policy::reference_internal)
      .def("fingerprint",
           [](const sm::LoadedModel& lm) -> nb::object {
             if (!lm.fingerprint()) return nb::none();
             const auto& f = *lm.fingerprint();
             nb::dict d;
             d["saved_model_checksum"] = f.saved_model_checksum;
             d["graph_def_program_hash"] = f.graph_def_program_hash;
             d["signature_def_hash"] = f.signature_def_hash;
             d["saved_object_graph_hash"] = f.saved_object_graph_hash;
             d["checkpoint_hash"] = f.checkpoint_hash;
             d["version"] = f.producer;
             d["uuid"] = f.uuid;
             return d;
           })
      .def("variables", [](const sm::LoadedModel& lm) {
        std::vector<std::pair<std::string, tfs::Variable>> out;
        for (const auto& [k, v] : lm.variables()) out.emplace_back(k, tfs::Variable(v));
        return out;
      });

  m.def("saved_model_save",
        [](const std::vector<std::pair<std::string, std::shared_ptr<tfs::ConcreteFunction>>>& fns,
           const std::string& dir) { sm::save(fns, dir); });
  // objects: (kind, identifier, [(local name, index)], variable or None,
  // [ConcreteFunctionCore], fullargspec, input_signature) per object, the root first; an asset's
  // identifier is its file's path.
  m.def("saved_model_save_objects",
        [](nb::list objects,
           const std::vector<std::pair<std::string, std::shared_ptr<tfs::ConcreteFunction>>>& sigs,
           const std::string& dir, const std::set<std::string>& named_after_function) {
          std::vector<sm::SaveObject> objs;
          for (nb::handle h : objects) {
            nb::tuple t = nb::cast<nb::tuple>(h);
            sm::SaveObject o;
            o.kind = nb::cast<std::string>(t[0]);
            o.identifier = nb::cast<std::string>(t[1]);
            if (o.kind == "asset") o.asset_path = o.identifier;  // the asset's file
            o.children = nb::cast<std::vector<std::pair<std::string, int>>>(t[2]);
            if (!t[3].is_none()) o.variable = to_value(t[3]).as_variable();
            o.concrete_functions =
                nb::cast<std::vector<std::shared_ptr<tfs::ConcreteFunction>>>(t[4]);
            o.fullargspec = to_value(t[5]);
            o.input_signature = to_value(t[6]);
            objs.push_back(std::move(o));
          }
          sm::save_objects(objs, sigs, dir, named_after_function);
        });
  m.def("saved_model_load", &sm::load);

  // tf.train.load_checkpoint's reader (tfscope/train.py shapes it into TF's CheckpointReader).
  namespace ck = tfs::checkpoint;
  nb::class_<ck::CheckpointReader>(m, "CheckpointReaderCore")
      .def(nb::init<const std::string&>())
      .def_prop_ro("prefix", &ck::CheckpointReader::prefix)
      .def("variables",
           [](const ck::CheckpointReader& r) {
             nb::list out;
             for (const auto& v : r.variables())
               out.append(nb::make_tuple(v.name, py_dtype(v.dtype), v.shape));
             return out;
           })
      .def("object_graph",
           [](const ck::CheckpointReader& r) {
             nb::list out;
             for (const ck::GraphNode& n : r.object_graph())
               out.append(nb::make_tuple(n.children, n.full_name, n.checkpoint_key));
             return out;
           })
      .def("has_tensor", &ck::CheckpointReader::has_tensor)
      .def("get_tensor", &ck::CheckpointReader::get_tensor);
  m.def("latest_checkpoint", &ck::latest_checkpoint);
  // tf.train.Checkpoint.write: objects as (children [(local name, index)], Variable or None),
  // the root first.
  m.def("checkpoint_write", [](const std::string& prefix, nb::list objects) {
    std::vector<ck::CheckpointObject> objs;
    for (nb::handle h : objects) {
      nb::tuple t = nb::cast<nb::tuple>(h);
      ck::CheckpointObject o;
      o.children = nb::cast<std::vector<std::pair<std::string, int>>>(t[0]);
      if (!t[1].is_none()) o.variable = nb::cast<tfs::Variable>(t[1]).state();
      objs.push_back(std::move(o));
    }
    ck::write(prefix, objs);
  });
  m.def("roundtrip_savedmodel",
        [](const tfs::ConcreteFunction& fn, const std::vector<std::vector<tfs::Tensor>>& probes,
           const std::string& dir) {
          sm::RoundtripReport r = sm::roundtrip_savedmodel(fn, probes, dir);
          nb::dict d;
          d["exact"] = r.exact;
          d["max_abs_delta"] = r.max_abs_delta;
          d["files"] = r.files;
          d["signatures"] = r.signatures;
          d["probes"] = r.probes;
          d["dir"] = r.dir;
          return d;
        });
}

}  // namespace tfpy
