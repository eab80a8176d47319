// tfs::saved_model for the Python API (tfscope.saved_model): save concrete functions, load a
// SavedModel's signatures, roundtrip. The package's saved_model.py shapes these into TF's API.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
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
      .def("call_flat", &sm::LoadedSignature::call_flat, nb::call_guard<nb::gil_scoped_release>())
      .def("report_text", [](const sm::LoadedSignature& s) { return s.report().text(); })
      .def("report_json", [](const sm::LoadedSignature& s) { return s.report().json(); })
      .def("report_dot", [](const sm::LoadedSignature& s) { return s.report().dot(); });

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
      .def("variables", [](const sm::LoadedModel& lm) {
        std::vector<std::pair<std::string, tfs::Variable>> out;
        for (const auto& [k, v] : lm.variables()) out.emplace_back(k, tfs::Variable(v));
        return out;
      });

  m.def("saved_model_save",
        [](const std::vector<std::pair<std::string, std::shared_ptr<tfs::ConcreteFunction>>>& fns,
           const std::string& dir) { sm::save(fns, dir); });
  m.def("saved_model_load", &sm::load);
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
