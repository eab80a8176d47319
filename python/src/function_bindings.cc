// Function and ConcreteFunction for the Python API: the Python callable becomes the traced Body;
// its arguments arrive as Python objects with tensors replaced by placeholders.
#include <algorithm>
#include <type_traits>
#include <variant>

#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/composite_type.h"
#include "tfscope/context.h"
#include "tfscope/function.h"
#include "tfscope/gradient_functions.h"
#include "tfscope/graph.h"
#include "tfscope/saved_model_io.h"
#include "tfscope/signature_text.h"
#include "trace_type_bindings.h"

namespace tfpy {

namespace {

using tfs::Value;

tfs::Kwargs kwargs_of(nb::dict kw) {
  tfs::Kwargs out;
  for (auto [k, v] : kw) out.emplace_back(nb::cast<std::string>(k), to_value(v));
  return out;
}

// A unique object (never freed: it outlives the interpreter's teardown of module state).
nb::handle run_eagerly_marker() {
  static PyObject* marker = PyObject_CallNoArgs(reinterpret_cast<PyObject*>(&PyBaseObject_Type));
  return marker;
}

std::vector<Value> args_of(nb::handle args) {
  std::vector<Value> out;
  if (PyTuple_Check(args.ptr())) out.reserve(static_cast<size_t>(PyTuple_GET_SIZE(args.ptr())));
  for (nb::handle a : args) out.push_back(to_value(a));
  return out;
}

// Python result -> Value; leaves TF cannot return are rejected with TF's text.
Value output_value(nb::handle r, const std::string& fn_repr) {
  if (r.is_none() || PyBool_Check(r.ptr()) || PyLong_Check(r.ptr()) || PyFloat_Check(r.ptr()) ||
      PyUnicode_Check(r.ptr()) || nb::isinstance<tfs::Tensor>(r)) {
    return to_value(r);
  }
  if (nb::hasattr(r, "_tfscope_variable"))
    return Value(nb::cast<tfs::Variable&>(r.attr("_tfscope_variable")).read_value());
  if (PyList_Check(r.ptr()) || PyTuple_Check(r.ptr())) {
    tfs::ValueList items;
    for (nb::handle x : r) items.push_back(output_value(x, fn_repr));
    if (PyList_Check(r.ptr())) return Value::list(items);
    if (nb::hasattr(r, "_fields")) {
      std::vector<std::string> fields;
      for (nb::handle f : r.attr("_fields")) fields.push_back(nb::cast<std::string>(f));
      return Value::named_tuple(nb::cast<std::string>(r.type().attr("__name__")), fields, items);
    }
    return Value::tuple(items);
  }
  if (PyDict_Check(r.ptr())) {
    tfs::ValueItems items;
    for (auto [k, v] : nb::borrow<nb::dict>(r))
      items.emplace_back(to_value(k), output_value(v, fn_repr));
    return Value::dict(items);
  }
  if (nb::hasattr(r, "__array__") && !PyType_Check(r.ptr())) return Value(to_tensor(r));
  if (has_tracing_protocol(r)) {  // a composite (a RaggedTensor): the tracer flattens it
    Value v = traced_value(r);
    if (tfs::result_composite(v)) return v;
  }
  std::string type_repr = nb::cast<std::string>(r.type().attr("__name__"));
  throw nb::type_error(("To be compatible with tf.function, Python functions must return zero or "
                        "more Tensors or ExtensionTypes or None values; in compilation of " +
                        fn_repr + ", found return value of type " + type_repr +
                        ", which is not a Tensor or ExtensionType.")
                           .c_str());
}

// A node attr as the GraphDef view shows it: (kind, value), kind one of "func", "list_type",
// "list_i", "list_s", "s", "type", "i", "b", "f", "shape", "tensor"; other attrs (lists of shapes)
// as ("other", None).
nb::tuple attr_view(const tfs::AttrValue& v) {
  return std::visit(
      [](const auto& x) -> nb::tuple {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, tfs::FuncAttr>) {
          return nb::make_tuple("func", x.name);
        } else if constexpr (std::is_same_v<T, std::vector<tfs::DType>>) {
          nb::list l;
          for (tfs::DType d : x) l.append(static_cast<int>(d));
          return nb::make_tuple("list_type", l);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          nb::list l;
          for (int64_t i : x) l.append(i);
          return nb::make_tuple("list_i", l);
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          nb::list l;
          for (const std::string& s : x) l.append(nb::bytes(s.data(), s.size()));
          return nb::make_tuple("list_s", l);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return nb::make_tuple("s", nb::bytes(x.data(), x.size()));
        } else if constexpr (std::is_same_v<T, tfs::DType>) {
          return nb::make_tuple("type", static_cast<int>(x));
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return nb::make_tuple("i", x);
        } else if constexpr (std::is_same_v<T, bool>) {
          return nb::make_tuple("b", x);
        } else if constexpr (std::is_same_v<T, float>) {
          return nb::make_tuple("f", x);
        } else if constexpr (std::is_same_v<T, tfs::PartialShape>) {
          return nb::make_tuple("shape", py_shape(x));
        } else if constexpr (std::is_same_v<T, tfs::Tensor>) {
          return nb::make_tuple("tensor", nb::cast(x));
        } else {
          return nb::make_tuple("other", nb::none());
        }
      },
      v);
}

nb::dict attrs_view(const tfs::AttrMap& attrs) {
  nb::dict d;
  for (const auto& [k, v] : attrs) {
    if (std::holds_alternative<std::monostate>(v)) continue;
    d[k.c_str()] = attr_view(v);
  }
  return d;
}

// The same view of a FunctionDef node's attrs (the proto TF's library holds).
nb::dict attrs_view(const google::protobuf::Map<std::string, tensorflow::AttrValue>& attrs) {
  nb::dict d;
  for (const auto& [k, v] : attrs) {
    nb::tuple t;
    if (v.has_func()) {
      t = nb::make_tuple("func", v.func().name());
    } else if (v.has_list() && v.list().type_size() > 0) {
      nb::list l;
      for (int x : v.list().type()) l.append(x);
      t = nb::make_tuple("list_type", l);
    } else if (v.has_list()) {
      nb::list l;
      for (int64_t x : v.list().i()) l.append(x);
      t = nb::make_tuple("list_i", l);
    } else if (v.value_case() == tensorflow::AttrValue::kS) {
      t = nb::make_tuple("s", nb::bytes(v.s().data(), v.s().size()));
    } else if (v.value_case() == tensorflow::AttrValue::kType) {
      t = nb::make_tuple("type", static_cast<int>(v.type()));
    } else if (v.value_case() == tensorflow::AttrValue::kI) {
      t = nb::make_tuple("i", v.i());
    } else if (v.value_case() == tensorflow::AttrValue::kB) {
      t = nb::make_tuple("b", v.b());
    } else if (v.value_case() == tensorflow::AttrValue::kF) {
      t = nb::make_tuple("f", v.f());
    } else {
      t = nb::make_tuple("other", nb::none());
    }
    d[k.c_str()] = t;
  }
  return d;
}

struct PyParam {
  std::string name;
  int kind;
  bool has_default;
  nb::object default_value;
};

// tf.Operation's view of a node: (name, type, input tensors, output tensors, control input
// names, attrs), control inputs in the order they were added.
nb::tuple operation_view(tfs::Graph& g, tfs::Node* n) {
  std::vector<tfs::Tensor> ins, outs;
  for (const auto& i : n->inputs) ins.push_back(g.tensor(i.node, i.index));
  for (int k = 0; k < n->num_outputs(); ++k) outs.push_back(g.tensor(n, k));
  nb::list ctrl;
  for (auto* c : n->control_inputs) ctrl.append(nb::str(c->name.c_str()));
  return nb::make_tuple(n->name, n->op(), ins, outs, ctrl, attrs_view(n->attrs));
}

nb::list operation_views(tfs::Graph& g) {
  nb::list out;
  for (auto& n : g.nodes()) out.append(operation_view(g, n.get()));
  return out;
}

}  // namespace

void bind_function(nb::module_& m) {
  nb::class_<tfs::ConcreteFunction>(m, "ConcreteFunctionCore")
      .def_prop_ro("name", &tfs::ConcreteFunction::name)
      .def_prop_ro("function_name", &tfs::ConcreteFunction::function_name)
      .def_prop_ro("for_saving", &tfs::ConcreteFunction::for_saving)
      .def("pretty_printed_signature", &tfs::ConcreteFunction::pretty_printed_signature,
           "verbose"_a = true)
      .def_prop_ro("structured_input_signature",
                   [](const tfs::ConcreteFunction& cf) {
                     return from_value(cf.structured_input_signature());
                   })
      .def_prop_ro(
          "structured_outputs",
          [](const tfs::ConcreteFunction& cf) { return from_value(cf.structured_outputs()); })
      .def_prop_ro("captured_inputs", &tfs::ConcreteFunction::captured_inputs)
      .def_prop_ro("inputs", &tfs::ConcreteFunction::inputs)
      .def_prop_ro("outputs", &tfs::ConcreteFunction::outputs)
      .def("capture_ids",
           [](const tfs::ConcreteFunction& cf) {
             std::vector<uintptr_t> ids;
             for (auto& c : cf.captures())
               ids.push_back(reinterpret_cast<uintptr_t>(c.external.id()));
             return ids;
           })
      .def("nodes",
           [](const tfs::ConcreteFunction& cf) {
             // (name, op, [inputs], attrs) per node, inputs as TF's GraphDef writes them ("x",
             // "mul:1", "^NoOp").
             nb::list out;
             for (auto& n : cf.graph()->nodes()) {
               nb::list ins;
               for (auto& i : n->inputs)
                 ins.append(i.node->name + (i.index ? ":" + std::to_string(i.index) : ""));
               // TF's Graph::ToGraphDef writes control inputs sorted by name.
               std::vector<std::string> ctrl;
               for (auto* c : n->control_inputs) ctrl.push_back(c->name);
               std::sort(ctrl.begin(), ctrl.end());
               for (auto& c : ctrl) ins.append("^" + c);
               out.append(nb::make_tuple(n->name, n->op(), ins, attrs_view(n->attrs)));
             }
             return out;
           })
      .def("operations",
           [](const tfs::ConcreteFunction& cf) { return operation_views(*cf.graph()); })
      .def("operation",
           [](const tfs::ConcreteFunction& cf, const std::string& name) -> nb::object {
             tfs::Node* n = cf.graph()->find_node(name);
             if (!n) return nb::none();
             return operation_view(*cf.graph(), n);
           })
      .def("library",
           [](const tfs::ConcreteFunction& cf) {
             // (name, [argument names], [(node name, op, [inputs])]) per library function, as the
             // FunctionDef TF writes names them ("while/add", inputs "while_placeholder_1",
             // "while/add_1/y:output:0"). A FunctionDef lists its arguments in its signature, not
             // as nodes.
             nb::list out;
             for (auto& [name, f] : cf.graph()->library()) {
               tensorflow::FunctionDef fd = tfs::savedmodel::function_def(*f);
               nb::list args;
               for (const auto& a : fd.signature().input_arg()) args.append(a.name());
               nb::list nodes;
               for (const auto& n : fd.node_def()) {
                 // TF's GraphToFunctionDef writes a node's control inputs sorted by name.
                 nb::list ins;
                 std::vector<std::string> ctrl;
                 for (const auto& i : n.input()) {
                   if (!i.empty() && i[0] == '^')
                     ctrl.push_back(i);
                   else
                     ins.append(i);
                 }
                 std::sort(ctrl.begin(), ctrl.end());
                 for (auto& c : ctrl) ins.append(c);
                 nodes.append(nb::make_tuple(n.name(), n.op(), ins, attrs_view(n.attr())));
               }
               out.append(nb::make_tuple(name, args, nodes));
             }
             return out;
           })
      .def_prop_ro("graph_name", [](const tfs::ConcreteFunction& cf) { return cf.graph()->name(); })
      .def("report_text", [](const tfs::ConcreteFunction& cf) { return cf.report().text(); })
      .def("report_json", [](const tfs::ConcreteFunction& cf) { return cf.report().json(); })
      .def("report_dot", [](const tfs::ConcreteFunction& cf) { return cf.report().dot(); })
      .def("call",
           [](const tfs::ConcreteFunction& cf, nb::args args, nb::kwargs kwargs) {
             std::vector<Value> a = args_of(args);
             tfs::Kwargs k = kwargs_of(kwargs);
             Value r;
             {
               nb::gil_scoped_release release;
               r = cf(a, k);
             }
             return from_value(r);
           })
      .def("call_flat", [](const tfs::ConcreteFunction& cf, std::vector<tfs::Tensor> flat) {
        Value r;
        {
          nb::gil_scoped_release release;
          r = cf.call_flat(flat);
        }
        return from_value(r);
      });

  nb::class_<tfs::Function>(m, "FunctionCore")
      .def(
          "__init__",
          [](tfs::Function* self, std::string name, nb::list params, nb::callable py_fn,
             nb::object input_signature, bool reduce_retracing, std::string detector_key,
             std::string display_name, size_t max_cache_entries) {
            std::vector<tfs::Parameter> ps;
            for (nb::handle p : params) {
              tfs::Parameter q;
              q.name = nb::cast<std::string>(p[0]);
              q.kind = static_cast<tfs::ParamKind>(nb::cast<int>(p[1]));
              if (nb::cast<bool>(p[2])) q.default_value = to_value(p[3]);
              ps.push_back(std::move(q));
            }
            tfs::FunctionOptions o;
            if (!input_signature.is_none()) o.input_signature = args_of(input_signature);
            o.reduce_retracing = reduce_retracing;
            o.detector_key = detector_key;
            o.display_name = display_name;
            o.max_cache_entries = max_cache_entries;
            // The body calls back into Python with placeholder-substituted arguments.
            // The engine runs with the GIL released (bindings release it around calls, so a
            // thread waiting for a trace never holds it); the body takes it back.
            tfs::Body body = [py_fn, display_name](const std::vector<Value>& args,
                                                   const tfs::Kwargs& kwargs) -> Value {
              nb::gil_scoped_acquire gil;
              nb::list pargs;
              for (auto& a : args) pargs.append(from_value(a));
              nb::dict pkw;
              for (auto& [k, v] : kwargs) pkw[k.c_str()] = from_value(v);
              nb::object r = py_fn(pargs, pkw);
              return output_value(r, display_name);
            };
            new (self) tfs::Function(name, ps, body, o);
          },
          "name"_a, "params"_a, "body"_a, "input_signature"_a.none(), "reduce_retracing"_a,
          "detector_key"_a, "display_name"_a, "max_cache_entries"_a = 0)
      // Every method that takes the Function's locks releases the GIL first: a thread that
      // holds the GIL while waiting for a lock deadlocks with one that holds the lock and waits
      // for the GIL (to run a body, or compare a Python argument).
      .def("call",
           [](tfs::Function& f, nb::args args, nb::kwargs kwargs) {
             std::vector<Value> a = args_of(args);
             tfs::Kwargs k = kwargs_of(kwargs);
             Value r;
             {
               nb::gil_scoped_release release;
               r = f.call(a, k);
             }
             return from_value(r);
           })
      // The common call (positional arguments, no input_signature) without a keyword dict:
      // under tf.config.run_functions_eagerly(True) it returns _core.RUN_EAGERLY instead, and the
      // Python layer runs the Python function itself on the caller's own objects.
      .def("call_positional",
           [](tfs::Function& f, nb::args args) -> nb::object {
             if (tfs::Context::get().functions_run_eagerly())
               return nb::borrow(run_eagerly_marker());
             std::vector<Value> a = args_of(args);
             Value r;
             {
               nb::gil_scoped_release release;
               r = f.call(a);
             }
             return from_value(r);
           })
      .def("get_concrete_function",
           [](tfs::Function& f, nb::args args, nb::kwargs kwargs) {
             std::vector<Value> a = args_of(args);
             tfs::Kwargs k = kwargs_of(kwargs);
             nb::gil_scoped_release release;
             return f.get_concrete_function(a, k);
           })
      .def("experimental_get_tracing_count", &tfs::Function::experimental_get_tracing_count,
           nb::call_guard<nb::gil_scoped_release>())
      .def("concrete_functions", &tfs::Function::concrete_functions,
           nb::call_guard<nb::gil_scoped_release>())
      .def("pretty_printed_concrete_signatures", &tfs::Function::pretty_printed_concrete_signatures,
           "verbose"_a = true, nb::call_guard<nb::gil_scoped_release>())
      .def(
          "ledger_text", [](const tfs::Function& f) { return f.ledger().text(); },
          nb::call_guard<nb::gil_scoped_release>())
      .def(
          "ledger_json", [](const tfs::Function& f) { return f.ledger().json(); },
          nb::call_guard<nb::gil_scoped_release>())
      .def(
          "ledger_counts",
          [](const tfs::Function& f) {
            auto l = f.ledger();
            return std::make_pair(l.calls(), l.traces());
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def("cache_stats",
           [](const tfs::Function& f) {
             nb::dict d;
             size_t n;
             {
               nb::gil_scoped_release release;
               n = f.last_miss_candidates();
             }
             d["last_miss_candidates"] = n;
             return d;
           })
      .def("trace_for_saving", &tfs::Function::trace_for_saving,
           nb::call_guard<nb::gil_scoped_release>())
      .def("set_fail_on_retrace", &tfs::Function::set_fail_on_retrace);

  // TF's signature text of a function that is not a trace of this process (a restored saved
  // trace, a loaded signature): each parameter (name, kind name, the value it is typed by), the
  // output structure (TensorSpecs), the captured tensors (a loaded signature's bound inputs).
  m.def(
      "signature_text",
      [](nb::list params, nb::handle outputs, bool verbose,
         const std::vector<tfs::Tensor>& captured) {
        static const std::pair<const char*, tfs::ParamKind> kinds[] = {
            {"POSITIONAL_ONLY", tfs::ParamKind::kPositionalOnly},
            {"POSITIONAL_OR_KEYWORD", tfs::ParamKind::kPositionalOrKeyword},
            {"VAR_POSITIONAL", tfs::ParamKind::kVarPositional},
            {"KEYWORD_ONLY", tfs::ParamKind::kKeywordOnly},
            {"VAR_KEYWORD", tfs::ParamKind::kVarKeyword}};
        std::vector<tfs::TypedParameter> typed;
        tfs::TraceTypeBuilder types;
        for (nb::handle h : params) {
          auto [name, kind, value] = nb::cast<std::tuple<std::string, std::string, nb::object>>(h);
          auto k = std::find_if(std::begin(kinds), std::end(kinds),
                                [&](const auto& e) { return kind == e.first; });
          if (k == std::end(kinds))
            throw nb::value_error(
                ("[function] signature_text: unknown parameter kind " + kind).c_str());
          typed.push_back({name, k->second, types.from_value(to_value(value))});
        }
        std::vector<std::string> captures;
        for (const auto& t : captured) captures.push_back(tfs::capture_text(t));
        return tfs::signature_text(typed, to_value(outputs), captures, verbose);
      },
      "params"_a, "outputs"_a, "verbose"_a, "captured"_a = std::vector<tfs::Tensor>{});
  m.def("sanitize_spec_name", &tfs::sanitize_spec_name);

  // The execution context (tfs::Context).
  m.def("operation_of", [](const tfs::Tensor& t) {
    if (!t.is_symbolic())
      throw nb::attribute_error("Tensor.op is undefined when eager execution is enabled.");
    return operation_view(*t.graph(), t.node());
  });
  m.def("graph_operation", [](const tfs::Tensor& t, const std::string& name) -> nb::object {
    tfs::Node* n = t.graph()->find_node(name);
    if (!n) return nb::none();
    return operation_view(*t.graph(), n);
  });
  m.def("run_functions_eagerly",
        [](bool on) { tfs::Context::get().set_run_functions_eagerly(on); });
  m.def("functions_run_eagerly", [] { return tfs::Context::get().functions_run_eagerly(); });
  m.attr("RUN_EAGERLY") = run_eagerly_marker();
  // The gradient function pairs built so far (tfscope's record; TF's are in its context's
  // function library, with forward_function_name/backward_function_name attributes).
  m.def("gradient_functions", [] {
    nb::list out;
    for (const tfs::GradientFunctionPair& p : tfs::gradient_functions()) {
      nb::dict d;
      d["of"] = p.of;
      d["forward"] = p.forward;
      d["backward"] = p.backward;
      d["forward_nodes"] = p.forward_nodes;
      d["backward_nodes"] = p.backward_nodes;
      d["kind"] = p.kind;
      d["built_by"] = p.built_by;
      d["call"] = p.call;
      out.append(d);
    }
    return out;
  });
  m.def("enter_init_scope", [] { tfs::Context::get().push_builder(nullptr); });
  m.def("exit_init_scope", [] { tfs::Context::get().pop_builder(); });
  m.def("enter_save_context", [] { tfs::Context::get().enter_save_context(); });
  m.def("exit_save_context", [] { tfs::Context::get().exit_save_context(); });

  m.def("set_warning_sink", [](nb::callable sink) {
    tfs::set_warning_sink([sink](const std::string& msg) {
      nb::gil_scoped_acquire gil;
      sink(msg);
    });
  });
  // The sink holds a Python callable: drop it at Python's exit, while the interpreter is alive.
  // Left to the C++ static's destructor it is released after finalization, without a thread
  // state, and the process aborts at exit ("PyThreadState_Get: ... GIL is released").
  nb::module_::import_("atexit").attr("register")(
      nb::cpp_function([]() { tfs::set_warning_sink({}); }));
}

}  // namespace tfpy
