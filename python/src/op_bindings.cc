// The generic op binding: any registered op run now or staged, with TF's name scopes, so Python
// wrappers (tf.TensorArray, tf.debugging, tf.strings) are written as TF's are, over
// gen_*_ops-like calls, without a C++ binding per op.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>

#include "convert.h"
#include "tfscope/ops.h"

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

}  // namespace

void bind_ops(nb::module_& m) {
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
            nb::isinstance<tfs::Variable>(v) ||
            (nb::hasattr(v, "__array__") && !PyList_Check(v.ptr()) && !PyTuple_Check(v.ptr()))) {
          return to_tensor(v, dtype_arg(dtype));
        }
        return tfs::convert_to_tensor(to_value(v), dtype_arg(dtype), name);
      },
      "value"_a, "dtype"_a.none(), "name"_a);
  m.def("exit_name_scope", [] {
    if (tfs::GraphBuilder* b = tfs::current_builder()) b->pop_scope();
  });
}

}  // namespace tfpy
