// The C++ AutoGraph converter for tfscope.autograph, and the few graph facts its runtime needs
// (what produced a tensor, a Const's value, a throw-away graph) that TF's runtime reads from
// tensor.op and FuncGraph('tmp').
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/autograph.h"
#include "tfscope/graph.h"
#include "tfscope/graph_builder.h"
#include "tfscope/ops.h"
#include "tfscope/ops_list.h"

namespace tfpy {
namespace {

// (ok, converted_or_message, diff, tf_exception_type, line_origins): conversion errors come back
// as values so that the Python side raises TF's exception classes.
nb::tuple convert(const std::string& source, const std::string& name,
                  const std::vector<std::string>& globals, const std::string& filename) {
  try {
    tfs::autograph::ConversionResult r =
        tfs::autograph::convert_source(source, name, filename, globals);
    return nb::make_tuple(true, r.converted, r.diff, std::string(), r.line_origins);
  } catch (const tfs::autograph::ConversionError& e) {
    return nb::make_tuple(false, std::string(e.what()), std::string(), e.tf_type(),
                          std::vector<int>());
  }
}

nb::tuple convert_lambda(const std::string& source, int line,
                         const std::vector<std::string>& params,
                         const std::vector<std::string>& globals, const std::string& filename) {
  try {
    tfs::autograph::ConversionResult r =
        tfs::autograph::convert_lambda_source(source, line, params, filename, globals);
    return nb::make_tuple(true, r.converted, r.diff, std::string(), r.line_origins);
  } catch (const tfs::autograph::ConversionError& e) {
    return nb::make_tuple(false, std::string(e.what()), std::string(), e.tf_type(),
                          std::vector<int>());
  }
}

nb::object op_type(const tfs::Tensor& t) {
  if (!t.is_symbolic()) return nb::none();
  return nb::str(t.node()->op().c_str());
}

// The data inputs of the op that produced `t` (TF's t.op.inputs), as tensors of its graph.
std::vector<tfs::Tensor> op_inputs(const tfs::Tensor& t) {
  std::vector<tfs::Tensor> out;
  if (!t.is_symbolic()) return out;
  for (const tfs::Output& in : t.node()->inputs)
    out.push_back(t.graph()->tensor(in.node, in.index));
  return out;
}

// tensor_util.constant_value for what the runtime asks about: eager values and Const outputs.
nb::object constant_value(const tfs::Tensor& t) {
  if (t.is_eager()) return tensor_to_numpy(t);
  if (t.node()->op() == "Const") return tensor_to_numpy(tfs::attr_tensor(t.node()->attrs, "value"));
  return nb::none();
}

// Runs fn() with a throw-away FuncGraph('tmp') as the current graph (TF stages a loop test or a
// trial iteration there); what it builds is discarded.
nb::object in_tmp_graph(nb::callable fn) {
  tfs::FuncGraphBuilder tmp("tmp");
  tfs::BuildScope scope(tmp);
  return fn();
}

tfs::Tensor placeholder(nb::handle dtype, nb::handle shape) {
  auto* b = dynamic_cast<tfs::FuncGraphBuilder*>(tfs::current_builder());
  if (!b) throw std::runtime_error("[autograph] placeholder outside a graph");
  return b->add_placeholder("Placeholder", dtype_arg(dtype), shape_arg(shape));
}

// `for x in tensor`: TF's _known_len_tf_for_stmt makes TensorArray(dtype, size=n) and unstacks the
// tensor into it; the loop body reads one element per iteration.
tfs::TensorArrayFlow tensor_array_unstack(const tfs::Tensor& value, nb::handle size) {
  tfs::Value n = nb::isinstance<tfs::Tensor>(size) ? tfs::Value(nb::cast<tfs::Tensor>(size))
                                                    : tfs::Value(nb::cast<int64_t>(size));
  return tfs::tensor_array_unstack(tfs::tensor_array(value.dtype(), n), value);
}

tfs::Tensor tensor_array_read(const tfs::TensorArrayFlow& ta, const tfs::Tensor& index) {
  return tfs::tensor_array_read(ta, tfs::Value(index));
}

}  // namespace

void bind_autograph(nb::module_& m) {
  m.def("autograph_convert", &convert, nb::arg("source"), nb::arg("name"), nb::arg("globals"),
        nb::arg("filename"));
  m.def("autograph_convert_lambda", &convert_lambda, nb::arg("source"), nb::arg("line"),
        nb::arg("params"), nb::arg("globals"), nb::arg("filename"));
  m.def("autograph_op_type", &op_type);
  m.def("autograph_op_inputs", &op_inputs);
  m.def("autograph_constant_value", &constant_value);
  m.def("autograph_in_tmp_graph", &in_tmp_graph);
  m.def("autograph_placeholder", &placeholder);
  nb::class_<tfs::TensorArrayFlow>(m, "_TensorArrayFlow")
      .def_ro("flow", &tfs::TensorArrayFlow::flow);
  m.def("autograph_tensor_array_unstack", &tensor_array_unstack);
  m.def("autograph_tensor_array_read", &tensor_array_read);
}

}  // namespace tfpy
