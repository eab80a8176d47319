// tfs::lite for the Python API (tfscope.lite): convert concrete functions and SavedModels to
// .tflite bytes (float or dynamic-range), the delta report, inspect, and the interpreter. The
// package's lite.py shapes these into tf.lite's API.
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstring>

#include "convert.h"
#include "tfscope/function.h"
#include "tfscope/lite.h"
#include "tfscope/lite_inspect.h"

namespace tfpy {

namespace {

namespace lite = tfs::lite;

nb::bytes to_bytes(const std::string& s) {
  return nb::bytes(s.data(), s.size());
}

lite::ConvertOptions options(bool dynamic_range, const std::string& key) {
  lite::ConvertOptions o;
  o.dynamic_range = dynamic_range;
  o.signature_key = key;
  return o;
}

// A float32 tensor as (shape, little-endian bytes): numpy converts on the Python side.
using Flat = std::pair<std::vector<int>, nb::bytes>;

}  // namespace

void bind_lite(nb::module_& m) {
  // A bad model or an unsupported op is a ValueError with the one-line message.
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const lite::FormatError& e) {
      set_error(PyExc_ValueError, e.what());
    }
  });

  m.def("lite_convert",
        [](const tfs::ConcreteFunction& fn, bool dynamic_range, const std::string& key) {
          return to_bytes(lite::convert(fn, options(dynamic_range, key)));
        });
  m.def("lite_convert_saved_model",
        [](const std::string& dir, bool dynamic_range, const std::string& key) {
          return to_bytes(lite::convert_saved_model(dir, options(dynamic_range, key)));
        });
  m.def("lite_delta_report", [](const tfs::ConcreteFunction& fn, int probes, uint64_t seed) {
    lite::DeltaReport r = lite::convert_tflite_dynamic(fn, probes, seed);
    return nb::make_tuple(r.json(), r.text(), to_bytes(r.float_model), to_bytes(r.int8_model));
  });
  m.def("lite_compare_models",
        [](nb::bytes float_model, nb::bytes int8_model, int probes, uint64_t seed) {
          lite::DeltaReport r = lite::compare_models(
              std::string(float_model.c_str(), float_model.size()),
              std::string(int8_model.c_str(), int8_model.size()), probes, seed);
          return nb::make_tuple(r.json(), r.text());
        });
  m.def("lite_inspect", [](const std::string& path, bool json) {
    return safe_str(lite::inspect_report(path, json));
  });

  nb::class_<lite::Interpreter>(m, "LiteInterpreterCore")
      .def("__init__",
           [](lite::Interpreter* self, nb::bytes model, const std::string& name, bool fast) {
             new (self)
                 lite::Interpreter(lite::ModelFile(std::string(model.c_str(), model.size()), name),
                                   fast ? lite::Kernels::kFast : lite::Kernels::kReference);
           })
      .def("num_inputs", &lite::Interpreter::num_inputs)
      .def("num_outputs", &lite::Interpreter::num_outputs)
      .def("input_shape", &lite::Interpreter::input_shape)
      .def("output_shape", &lite::Interpreter::output_shape)
      .def("input_type", &lite::Interpreter::input_type)
      .def("input_name",
           [](const lite::Interpreter& self, int i) { return safe_str(self.input_name(i)); })
      // tf.lite.Interpreter's set_tensor / invoke / get_tensor: the input's values go straight
      // into the interpreter's buffer, invoke plans once per input shape and then only computes,
      // and the output comes back as one new numpy array.
      .def("set_input",
           [](lite::Interpreter& self, int i,
              nb::ndarray<const float, nb::c_contig, nb::device::cpu> a) {
             thread_local std::vector<int> shape;
             shape.resize(a.ndim());
             for (size_t k = 0; k < a.ndim(); ++k) shape[k] = static_cast<int>(a.shape(k));
             self.resize_input(i, shape);
             std::memcpy(self.input_data(i), a.data(), a.size() * sizeof(float));
           })
      .def("invoke", &lite::Interpreter::invoke)
      .def("output",
           [](const lite::Interpreter& self, int i) {
             const lite::Interpreter::TensorValue& v = self.output(i);
             float* data = new float[v.data.size() ? v.data.size() : 1];
             std::memcpy(data, v.data.data(), v.data.size() * sizeof(float));
             nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<float*>(p); });
             size_t shape[8];
             const size_t ndim = std::min<size_t>(v.shape.size(), 8);
             for (size_t k = 0; k < ndim; ++k) shape[k] = static_cast<size_t>(v.shape[k]);
             return nb::ndarray<nb::numpy, float>(data, ndim, shape, owner);
           })
      .def("run", [](lite::Interpreter& self, const std::vector<Flat>& inputs) {
        std::vector<lite::Interpreter::TensorValue> ins;
        for (const auto& [shape, data] : inputs) {
          lite::Interpreter::TensorValue v;
          v.shape = shape;
          v.data.resize(data.size() / sizeof(float));
          std::memcpy(v.data.data(), data.c_str(), v.data.size() * sizeof(float));
          ins.push_back(std::move(v));
        }
        std::vector<Flat> outs;
        for (const auto& o : self.run(ins)) {
          outs.emplace_back(o.shape, nb::bytes(o.data.data(), o.data.size() * sizeof(float)));
        }
        return outs;
      });
}

}  // namespace tfpy
