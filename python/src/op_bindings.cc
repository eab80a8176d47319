// The generic op bindings: any registered op run now or staged, with TF's name scopes, so Python
// wrappers (tf.TensorArray, tf.debugging, tf.strings, tf.raw_ops, the everyday ops) are written
// as TF's are without a C++ binding per op. apply_op(op_type, inputs, attrs, name) is TF's
// generated wrapper in one call (tfs::apply_op), the one way Python calls an op; named(base,
// name, fn, *args) runs a C++ front end with name=.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <memory>

#include "convert.h"
#include "tfscope/graph.h"
#include "tfscope/graph_builder.h"
#include "tfscope/host_array.h"
#include "tfscope/op_def.h"
#include "tfscope/operand_order.h"
#include "tfscope/ops.h"
#include "tfscope/py_func.h"
#include "tfscope/thread_pool.h"

namespace tfs::data::detail {
void register_data_ops();  // the tf.data, iterator, parsing and summary ops (src/data), lazily
}  // namespace tfs::data::detail

namespace tfpy {

namespace {

bool is_dtype(nb::handle h) {
  return nb::hasattr(h, "_enum") && !nb::isinstance<tfs::Tensor>(h);
}

// A Python attr value as TF's op_def_library reads it: bool before int, a tfscope.DType, a
// TensorShape (anything with _dims), a list of DTypes, of strings or of ints, a string, a Tensor.
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
    if (nb::len(s) > 0 && nb::isinstance<nb::str>(s[0])) {
      std::vector<std::string> v;
      for (nb::handle x : s) v.push_back(nb::cast<std::string>(x));
      return v;
    }
    std::vector<int64_t> v;
    for (nb::handle x : s) v.push_back(nb::cast<int64_t>(nb::int_(x)));
    return v;
  }
  throw nb::type_error(
      ("[python] unsupported attr value " + std::string(nb::repr(h).c_str())).c_str());
}

// An operand of apply_op: converted_operand()'s, and a Python bytes a host value too (numpy
// holds it as a 0-d bytes array; TF's fast path does not take it).
tfs::Value op_operand(nb::handle h) {
  if (PyBytes_Check(h.ptr())) return tfs::host_array(numpy_to_tensor(h), false);
  return converted_operand(h);
}

// An op's attrs from a Python dict (None: the op's default); an empty list is an empty
// list(type) where the op says so (Tout=[]).
tfs::AttrMap op_attrs(const tfs::OpDef& def, nb::handle attrs) {
  tfs::AttrMap am;
  if (attrs.is_none()) return am;
  for (auto [k, v] : nb::borrow<nb::dict>(attrs)) {
    if (v.is_none()) continue;
    am[nb::cast<std::string>(k)] = attr_value(v);
  }
  for (const auto* args : {&def.inputs, &def.outputs}) {
    for (const tfs::ArgDef& arg : *args) {
      auto it = am.find(arg.type_list_attr);
      if (arg.type_list_attr.empty() || it == am.end()) continue;
      const auto* ints = std::get_if<std::vector<int64_t>>(&it->second);
      if (ints && ints->empty()) it->second = std::vector<tfs::DType>{};
    }
  }
  return am;
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

// The op's outputs as TF's generated wrapper returns them: one tensor, a list for a list
// output, a tuple of those for several outputs, None for none.
nb::object outputs_object(const tfs::OpDef& def, const tfs::AttrMap& attrs,
                          const std::vector<tfs::Tensor>& outs) {
  if (def.outputs.empty()) return nb::none();
  if (def.outputs.size() == 1 && def.outputs[0].number_attr.empty() &&
      def.outputs[0].type_list_attr.empty()) {
    return nb::cast(outs.at(0));
  }
  // A list output's length: its attr when known, else whatever the other outputs leave.
  std::vector<long> counts;
  long known = 0, unknown = -1;
  for (size_t i = 0; i < def.outputs.size(); ++i) {
    const tfs::ArgDef& o = def.outputs[i];
    long n = 1;
    if (!o.number_attr.empty()) {
      n = attrs.count(o.number_attr) ? static_cast<long>(tfs::attr_int(attrs, o.number_attr)) : -1;
    } else if (!o.type_list_attr.empty()) {
      n = attrs.count(o.type_list_attr)
              ? static_cast<long>(tfs::attr_types(attrs, o.type_list_attr).size())
              : -1;
    }
    if (n < 0)
      unknown = static_cast<long>(i);
    else
      known += n;
    counts.push_back(n);
  }
  if (unknown >= 0) counts[static_cast<size_t>(unknown)] = static_cast<long>(outs.size()) - known;
  nb::list groups;
  size_t k = 0;
  for (size_t i = 0; i < def.outputs.size(); ++i) {
    const tfs::ArgDef& o = def.outputs[i];
    if (o.number_attr.empty() && o.type_list_attr.empty()) {
      groups.append(nb::cast(outs.at(k++)));
      continue;
    }
    nb::list l;
    for (long j = 0; j < counts[i] && k < outs.size(); ++j) l.append(nb::cast(outs[k++]));
    groups.append(l);
  }
  if (def.outputs.size() == 1) return groups[0];
  return nb::tuple(groups);
}

}  // namespace

void bind_ops(nb::module_& m) {
  // tf.config.threading (python/tfscope/__init__.py checks the Python types as TF's proto does)
  m.def("set_intra_op_parallelism_threads", &tfs::set_intra_op_parallelism_threads);
  m.def("set_inter_op_parallelism_threads", &tfs::set_inter_op_parallelism_threads);
  m.def("get_intra_op_parallelism_threads", &tfs::configured_intra_op_threads);
  m.def("get_inter_op_parallelism_threads", &tfs::configured_inter_op_threads);
  m.def("intra_op_threads", &tfs::intra_op_threads);
  m.def("inter_op_threads", &tfs::inter_op_threads);
  m.def("context_initialized", &tfs::context_initialized);
  tfs::set_py_func_runner(&run_py_func);
  // Every registered op's name (the registry tf.raw_ops and the Python wrappers draw on), the
  // ops src/data registers on first use included.
  m.def("registered_ops", [] {
    tfs::data::detail::register_data_ops();
    return tfs::OpRegistry::global().names();
  });
  // The attrs an op's OpDef itself names: its type attrs ("T", "DstT") and the attrs that size
  // or type its list arguments ("N", "Tout"); its other attrs only its kernel reads.
  m.def("op_def_attrs", [](const std::string& op) {
    const tfs::OpDef& d = tfs::OpRegistry::global().get(op);
    std::vector<std::string> names;
    auto add = [&](const std::string& n) {
      if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    };
    for (const auto& t : d.type_attrs) add(t.name);
    for (const auto* args : {&d.inputs, &d.outputs}) {
      for (const auto& a : *args) {
        add(a.type_attr);
        add(a.number_attr);
        add(a.type_list_attr);
      }
    }
    return names;
  });
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
  // What FuncGraph.capture does when an op's input is converted: an eager tensor (a resource
  // handle) fed to the graph being built becomes its placeholder now, named `name` in the
  // current scope, instead of when the op that reads it is added.
  m.def("capture_named", [](const tfs::Tensor& t, const std::string& name) -> tfs::Tensor {
    auto* b = dynamic_cast<tfs::FuncGraphBuilder*>(tfs::current_builder());
    if (!b || !t.is_eager()) return t;
    return b->capture(t, name);
  });
  // ops.control_dependencies([op]) around the one op made in it: `t`'s node runs after the
  // node named `op_name` (an op without outputs, such as WriteSummary) of the same graph.
  m.def("add_control_input", [](const tfs::Tensor& t, const std::string& op_name) {
    if (!t.is_symbolic()) return;
    tfs::Node* n = t.graph()->find_node(op_name);
    if (!n) tfs::invalid_argument("No node named '" + op_name + "' in the graph");
    t.node()->control_inputs.push_back(n);
  });
  // ops.get_name_scope(): the current scope without its "/" ("" eagerly and at the top).
  m.def("get_name_scope", []() -> std::string {
    tfs::GraphBuilder* b = tfs::current_builder();
    if (!b) return "";
    std::string s = b->name_scope();
    if (!s.empty()) s.pop_back();
    return s;
  });
  // apply_op(op_type, inputs, attrs=None, name=None): one value per input ArgDef (a list for a
  // list input), host values converted to the op's dtypes in the op's scope (a name ending in
  // "/" re-enters that scope); one tensor back for a single output, a list for a list output, a
  // tuple for several, None for none.
  m.def(
      "apply_op",
      [](const std::string& op, nb::handle inputs, nb::handle attrs, nb::handle name) {
        std::vector<tfs::Value> ins;
        for (nb::handle x : inputs) {
          // A list input is a list of operands (each a tensor, a variable or a host value).
          if (PyList_Check(x.ptr()) || PyTuple_Check(x.ptr())) {
            tfs::ValueList items;
            for (nb::handle y : x) items.push_back(op_operand(y));
            ins.push_back(PyTuple_Check(x.ptr()) ? tfs::Value::tuple(std::move(items))
                                                 : tfs::Value::list(std::move(items)));
          } else {
            ins.push_back(op_operand(x));
          }
        }
        const tfs::OpDef& def = tfs::OpRegistry::global().get(op);
        tfs::AttrMap am = op_attrs(def, attrs);
        std::string n = name.is_none() ? std::string() : nb::cast<std::string>(nb::str(name));
        std::vector<tfs::Tensor> outs = tfs::apply_op(op, ins, am, n);
        return outputs_object(def, am, outs);
      },
      "op_type"_a, "inputs"_a, "attrs"_a.none() = nb::none(), "name"_a.none() = nb::none());
  // _core.named(base, name, fn, *args): fn(*args) with its node `base` named `name` (None: as is).
  m.def("named", [](nb::args args, nb::kwargs kwargs) -> nb::object {
    if (args.size() < 3) throw nb::type_error("named(base, name, fn, *args)");
    nb::object fn = args[2];
    nb::tuple rest = nb::steal<nb::tuple>(PyTuple_GetSlice(args.ptr(), 3, PY_SSIZE_T_MAX));
    if (args[1].is_none()) return fn(*rest, **kwargs);
    tfs::WrapperName w(nb::cast<std::string>(args[0]), nb::cast<std::string>(nb::str(args[1])));
    return fn(*rest, **kwargs);
  });
  // _core.named_in_order(always, base, name, fn, *args): named() for a wrapper that converts its
  // operands in input order (tf.add: always; a generated op wrapper: in a graph), not the
  // operators' tensor-first way (tfscope/operand_order.h).
  m.def("named_in_order", [](nb::args args, nb::kwargs kwargs) -> nb::object {
    if (args.size() < 4) throw nb::type_error("named_in_order(always, base, name, fn, *args)");
    tfs::OperandOrderScope order(nb::cast<bool>(args[0]) ? tfs::OperandOrder::kInOrder
                                                         : tfs::OperandOrder::kInOrderInGraph);
    nb::object fn = args[3];
    nb::tuple rest = nb::steal<nb::tuple>(PyTuple_GetSlice(args.ptr(), 4, PY_SSIZE_T_MAX));
    if (args[2].is_none()) return fn(*rest, **kwargs);
    tfs::WrapperName w(nb::cast<std::string>(args[1]), nb::cast<std::string>(nb::str(args[2])));
    return fn(*rest, **kwargs);
  });
}

}  // namespace tfpy
