// The generic op binding: any registered op run now or staged, with TF's name scopes, so Python
// wrappers (tf.TensorArray, tf.debugging, tf.strings) are written as TF's are, over
// gen_*_ops-like calls, without a C++ binding per op.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>

#include "convert.h"
#include "tfscope/ops.h"
#include "tfscope/py_func.h"

namespace tfpy {

namespace {

bool is_dtype(nb::handle h) {
  return nb::hasattr(h, "_enum") && !nb::isinstance<tfs::Tensor>(h);
}

// A Python attr value as TF's op_def_library reads it: bool before int, a tfscope.DType, a
// TensorShape (anything with _dims), a list of DTypes or of ints, a string, a Tensor.
tfs::AttrValue attr_value(nb::handle h) {
  if (PyBool_Check(h.ptr())) return nb::cast<bool>(h);
  if (PyLong_Check(h.ptr())) return nb::cast<int64_t>(h);
  if (PyFloat_Check(h.ptr())) return nb::cast<float>(h);
  if (nb::isinstance<nb::str>(h)) return nb::cast<std::string>(h);
  if (nb::isinstance<nb::bytes>(h)) {
    nb::bytes b = nb::borrow<nb::bytes>(h);
    return std::string(b.c_str(), b.size());
  }
  if (nb::isinstance<tfs::Tensor>(h)) return nb::cast<tfs::Tensor>(h);
  if (is_dtype(h)) return dtype_arg(h);
  if (nb::hasattr(h, "_dims")) return shape_arg(h);
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    nb::sequence s = nb::borrow<nb::sequence>(h);
    if (nb::len(s) > 0 && is_dtype(s[0])) {
      std::vector<tfs::DType> v;
      for (nb::handle x : s) v.push_back(dtype_arg(x));
      return v;
    }
    std::vector<int64_t> v;
    for (nb::handle x : s) v.push_back(nb::cast<int64_t>(nb::int_(x)));
    return v;
  }
  throw nb::type_error(
      ("[python] unsupported attr value " + std::string(nb::repr(h).c_str())).c_str());
}

void flatten_inputs(nb::handle h, std::vector<tfs::Tensor>& out) {
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    for (nb::handle x : h) flatten_inputs(x, out);
    return;
  }
  out.push_back(to_tensor(h));
}

// The EagerPyFunc/PyFunc kernels' way into Python: tfscope._py_func._run with the GIL held; it
// returns the results, or the error text of the function's exception.
std::vector<tfs::Tensor> run_py_func(const std::string& token, bool eager,
                                     std::span<const tfs::Tensor> inputs,
                                     const std::vector<tfs::DType>& out_types) {
  nb::gil_scoped_acquire gil;
  nb::list ins, types;
  for (const tfs::Tensor& t : inputs) ins.append(nb::cast(t));
  for (tfs::DType d : out_types) types.append(py_dtype(d));
  nb::object r;
  try {
    r = nb::module_::import_("tfscope._py_func").attr("_run")(token, eager, ins, types);
  } catch (nb::python_error& e) {
    tfs::invalid_argument(e.what());
  }
  if (nb::isinstance<nb::str>(r)) tfs::invalid_argument(nb::cast<std::string>(r));
  std::vector<tfs::Tensor> out;
  for (nb::handle h : r) out.push_back(nb::cast<tfs::Tensor>(h));
  return out;
}

}  // namespace

void bind_ops(nb::module_& m) {
  tfs::set_py_func_runner(&run_py_func);
  // execute(op_type, inputs, attrs, name): inputs are tensors (a list for a list argument);
  // returns the op's outputs as a list.
  m.def(
      "execute",
      [](const std::string& op, nb::list inputs, nb::dict attrs, const std::string& name,
         bool fallback) {
        // A host list operand sends TF's generated wrapper down eager_fallback, whose errors
        // end at "[Op:X]" (no " name: ").
        std::optional<tfs::EagerErrorName> suffix;
        if (fallback) suffix.emplace("");
        std::vector<tfs::Tensor> ins;
        for (nb::handle x : inputs) flatten_inputs(x, ins);
        tfs::AttrMap a;
        for (auto [k, v] : attrs) a[nb::cast<std::string>(k)] = attr_value(v);
        // An empty Python list is an empty list(type) where the op says so (Tout=[]).
        const tfs::OpDef& def = tfs::OpRegistry::global().get(op);
        for (const auto* args : {&def.inputs, &def.outputs}) {
          for (const tfs::ArgDef& arg : *args) {
            auto it = a.find(arg.type_list_attr);
            if (arg.type_list_attr.empty() || it == a.end()) continue;
            const auto* ints = std::get_if<std::vector<int64_t>>(&it->second);
            if (ints && ints->empty()) it->second = std::vector<tfs::DType>{};
          }
        }
        return tfs::execute(op, std::move(ins), std::move(a), name);
      },
      "op"_a, "inputs"_a, "attrs"_a, "name"_a = "", "fallback"_a = false);
  // The names of an op's inputs and outputs (OpDef order), for tf.raw_ops.
  m.def("op_arg_names", [](const std::string& op) {
    const tfs::OpDef& d = tfs::OpRegistry::global().get(op);
    std::vector<std::string> ins, outs;
    for (const auto& a : d.inputs) ins.push_back(a.name);
    for (const auto& a : d.outputs) outs.push_back(a.name);
    return std::make_pair(ins, outs);
  });
  // with ops.name_scope(base): in a graph, the scope's unique name (taken now when mark_used,
  // else left for the op created next) is pushed and returned; eagerly "" and nothing pushed.
  m.def(
      "enter_name_scope",
      [](const std::string& base, bool mark_used) -> std::string {
        tfs::GraphBuilder* b = tfs::current_builder();
        if (!b) return "";
        std::string n = b->unique_name(base, mark_used);
        b->push_scope(n);
        return n;
      },
      "base"_a, "mark_used"_a = true);
  // The scope of a name that is already unique ("TensorArrayV2Read/TensorListGetItem").
  m.def("enter_exact_scope", [](const std::string& path) {
    if (tfs::GraphBuilder* b = tfs::current_builder()) b->push_scope(path);
  });
  // ops.convert_to_tensor(value, dtype, name=name): a host value becomes a Const named `name`
  // in the current scope (a graph) or an eager tensor; a tensor is returned as it is.
  m.def(
      "convert_named",
      [](nb::handle v, nb::handle dtype, const std::string& name) {
        if (nb::isinstance<tfs::Tensor>(v) || nb::hasattr(v, "_tfscope_variable") ||
            nb::isinstance<tfs::Variable>(v)) {
          return to_tensor(v, dtype_arg(dtype));
        }
        if (nb::hasattr(v, "__array__") && !PyList_Check(v.ptr()) && !PyTuple_Check(v.ptr())) {
          tfs::Tensor t = numpy_to_tensor(v);
          const tfs::DType d = dtype_arg(dtype);
          if (d != tfs::DType::kInvalid && d != t.dtype()) t = tfs::cast(t, d);
          if (tfs::GraphBuilder* b = tfs::current_builder()) return b->constant(t, name);
          return t;
        }
        return tfs::convert_to_tensor(to_value(v), dtype_arg(dtype), name);
      },
      "value"_a, "dtype"_a.none(), "name"_a);
  m.def("exit_name_scope", [] {
    if (tfs::GraphBuilder* b = tfs::current_builder()) b->pop_scope();
  });
}

}  // namespace tfpy
