// tfs::lite for the Python API (tfscope.lite): convert concrete functions and SavedModels to
// .tflite bytes (float or dynamic-range), the delta report, inspect, and the interpreter. The
// package's lite.py shapes these into tf.lite's API.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
// NumPy's C API (this file's own table of it, filled by _import_array in bind_lite).
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

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

// tfscope.lite.Interpreter's core: the interpreter and the arrays set_tensor was given (what
// get_tensor returns for an input index). Tensor indices are the inputs' 0..n-1, then the outputs'.
struct PyInterpreter {
  lite::Interpreter it;
  std::vector<nb::object> inputs;  // float32, C-contiguous; None until set
};

// A tensor index or subgraph index argument: an int (or anything with __index__, e.g. numpy's).
Py_ssize_t index_arg(nb::handle h, const char* what) {
  Py_ssize_t i = PyNumber_AsSsize_t(h.ptr(), PyExc_OverflowError);
  if (i == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw nb::type_error(
        (std::string(what) + " must be an int, got " + nb::cast<std::string>(nb::repr(h))).c_str());
  }
  return i;
}

// "Invalid tensor index 7: get_tensor takes tfscope.lite.Interpreter's inputs 0..0 and outputs
// 1..1" (tensor indices are the inputs', then the outputs').
[[noreturn]] void bad_index(Py_ssize_t i, const PyInterpreter& self, bool outputs_too) {
  const int n_in = self.it.num_inputs(), n_out = self.it.num_outputs();
  std::string text = "Invalid tensor index " + std::to_string(i) + ": " +
                     (outputs_too ? "get_tensor" : "set_tensor") +
                     " takes tfscope.lite.Interpreter's inputs 0.." + std::to_string(n_in - 1);
  if (outputs_too) {
    text += " and outputs " + std::to_string(n_in) + ".." + std::to_string(n_in + n_out - 1);
  }
  throw nb::value_error(text.c_str());
}

// set_tensor(index, value): value as a float32 C-contiguous array (integer inputs, token ids,
// travel as float32: exact up to 2^24), its shape given to the input, its values copied in. An
// array that already is one is used as it is, through NumPy's C API (the conversion, and the
// binding's generic array path, were half of a batch-1 int8 invoke's time from Python).
void set_tensor(PyInterpreter& self, nb::handle index, nb::handle value) {
  const Py_ssize_t i = index_arg(index, "tensor_index");
  if (i < 0 || i >= self.it.num_inputs()) bad_index(i, self, false);
  if (value.is_none()) throw nb::type_error("set_tensor's value must be an array, got None");
  nb::object a;
  PyObject* p = value.ptr();
  if (PyArray_CheckExact(p) && PyArray_TYPE(reinterpret_cast<PyArrayObject*>(p)) == NPY_FLOAT32 &&
      PyArray_ISCARRAY_RO(reinterpret_cast<PyArrayObject*>(p)) &&
      PyArray_NDIM(reinterpret_cast<PyArrayObject*>(p)) >= 1) {
    a = nb::borrow(value);
  } else {  // what numpy.ascontiguousarray(value, dtype=numpy.float32) makes of it
    static PyObject* f32 = reinterpret_cast<PyObject*>(PyArray_DescrFromType(NPY_FLOAT32));
    a = registry().numpy.attr("ascontiguousarray")(value, nb::arg("dtype") = nb::handle(f32));
  }
  auto* arr = reinterpret_cast<PyArrayObject*>(a.ptr());
  thread_local std::vector<int> shape;
  shape.assign(PyArray_DIMS(arr), PyArray_DIMS(arr) + PyArray_NDIM(arr));
  self.it.resize_input(static_cast<int>(i), shape);
  std::memcpy(self.it.input_data(static_cast<int>(i)), PyArray_DATA(arr),
              static_cast<size_t>(PyArray_NBYTES(arr)));
  self.inputs[static_cast<size_t>(i)] = std::move(a);
}

// get_tensor(index, subgraph_index=0): an input's array as set_tensor kept it (None before), or
// a new float32 array holding an output's values of the last invoke.
nb::object get_tensor(const PyInterpreter& self, nb::handle index, nb::handle subgraph) {
  const Py_ssize_t sub = index_arg(subgraph, "subgraph_index");
  if (sub != 0) {
    throw nb::value_error(("tfscope.lite.Interpreter runs the first subgraph only "
                           "(subgraph_index=" +
                           std::to_string(sub) + ")")
                              .c_str());
  }
  const Py_ssize_t i = index_arg(index, "tensor_index");
  const int n_in = self.it.num_inputs();
  if (i >= 0 && i < n_in) {
    const nb::object& v = self.inputs[static_cast<size_t>(i)];
    return v.is_valid() ? v : nb::none();
  }
  if (i < n_in || i >= n_in + self.it.num_outputs()) bad_index(i, self, true);
  const lite::Interpreter::TensorValue& v = self.it.output(static_cast<int>(i - n_in));
  if (v.shape.size() > NPY_MAXDIMS) {
    throw nb::value_error(("output " + std::to_string(i) + " has " +
                           std::to_string(v.shape.size()) + " dimensions, more than NumPy's " +
                           std::to_string(NPY_MAXDIMS))
                              .c_str());
  }
  npy_intp dims[NPY_MAXDIMS];
  const int nd = static_cast<int>(v.shape.size());
  for (int k = 0; k < nd; ++k) dims[k] = v.shape[static_cast<size_t>(k)];
  PyObject* out = PyArray_SimpleNew(nd, dims, NPY_FLOAT32);
  if (!out) throw nb::python_error();
  std::memcpy(PyArray_DATA(reinterpret_cast<PyArrayObject*>(out)), v.data.data(),
              v.data.size() * sizeof(float));
  return nb::steal(out);
}

}  // namespace

void bind_lite(nb::module_& m) {
  if (_import_array() < 0) throw nb::python_error();  // NumPy's C API, for the interpreter below
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

  nb::class_<PyInterpreter>(m, "LiteInterpreterCore")
      .def("__init__",
           [](PyInterpreter* self, nb::bytes model, const std::string& name, bool fast) {
             new (self) PyInterpreter{
                 lite::Interpreter(lite::ModelFile(std::string(model.c_str(), model.size()), name),
                                   fast ? lite::Kernels::kFast : lite::Kernels::kReference),
                 {}};
             self->inputs.resize(static_cast<size_t>(self->it.num_inputs()));
           })
      .def("num_inputs", [](const PyInterpreter& self) { return self.it.num_inputs(); })
      .def("num_outputs", [](const PyInterpreter& self) { return self.it.num_outputs(); })
      .def("input_shape", [](const PyInterpreter& self, int i) { return self.it.input_shape(i); })
      .def("output_shape", [](const PyInterpreter& self, int i) { return self.it.output_shape(i); })
      .def("input_type", [](const PyInterpreter& self, int i) { return self.it.input_type(i); })
      .def("input_name",
           [](const PyInterpreter& self, int i) { return safe_str(self.it.input_name(i)); })
      // tf.lite.Interpreter's set_tensor / invoke / get_tensor, which tfscope.lite.Interpreter
      // hands out as they are (no Python frame per call): see set_tensor and get_tensor above.
      .def("set_tensor", &set_tensor, nb::arg("tensor_index").none(), nb::arg("value").none())
      .def("invoke", [](PyInterpreter& self) { self.it.invoke(); })
      .def("get_tensor", &get_tensor, nb::arg("tensor_index").none(),
           nb::arg("subgraph_index").none() = 0)
      .def("run", [](PyInterpreter& py, const std::vector<Flat>& inputs) {
        lite::Interpreter& self = py.it;
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
