// tf.GradientTape's engine half (include/tfscope/tape.h); the Python surface, nests and warnings
// are in tfscope/_tape.py.
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/indexed_slices.h"
#include "tfscope/ops_loss.h"
#include "tfscope/ops_sparse.h"
#include "tfscope/tape.h"

namespace tfpy {

namespace {

tfs::TapeOperand tape_operand(nb::handle h) {
  if (nb::hasattr(h, "_tfscope_variable")) {
    return tfs::TapeOperand(nb::cast<tfs::Variable&>(h.attr("_tfscope_variable")).state());
  }
  if (nb::isinstance<tfs::Variable>(h))
    return tfs::TapeOperand(nb::cast<tfs::Variable&>(h).state());
  return tfs::TapeOperand(to_tensor(h));
}

std::vector<tfs::TapeOperand> operands(nb::handle list) {
  std::vector<tfs::TapeOperand> out;
  for (nb::handle h : list) out.push_back(tape_operand(h));
  return out;
}

// A gradient for Python: a tensor, None, or an IndexedSlices as the tuple (values, indices,
// dense_shape) that tfscope/_tape.py wraps in tf.IndexedSlices.
nb::object gradient_object(const tfs::GradientValue& g) {
  if (auto* s = std::get_if<tfs::IndexedSlices>(&g))
    return nb::make_tuple(s->values, s->indices, s->dense_shape);
  const tfs::Tensor& t = std::get<tfs::Tensor>(g);
  return t.defined() ? nb::cast(t) : nb::none();
}

std::shared_ptr<tfs::VariableState> variable_state(nb::handle h) {
  if (nb::hasattr(h, "_tfscope_variable")) h = h.attr("_tfscope_variable");
  return nb::cast<tfs::Variable&>(h).state();
}

}  // namespace

void bind_tape(nb::module_& m) {
  using tfs::GradientTape;
  nb::class_<GradientTape>(m, "GradientTapeCore")
      .def(nb::init<bool, bool>())
      .def("enter", &GradientTape::enter)
      .def("exit", &GradientTape::exit)
      .def_prop_ro("recording", &GradientTape::recording)
      .def("watch", [](GradientTape& t, nb::handle x) { t.watch(tape_operand(x)); })
      .def("watched_variables",
           [](const GradientTape& t) {
             nb::list out;
             for (auto& v : t.watched_variables()) {
               out.append(registry().variable_class.attr("_wrap")(tfs::Variable(v)));
             }
             return out;
           })
      .def("pause", &GradientTape::pause)
      .def("resume", &GradientTape::resume)
      .def("reset", &GradientTape::reset)
      .def(
          "gradient",
          [](GradientTape& t, nb::handle targets, nb::handle sources, nb::handle out_grads,
             bool zero) {
            std::vector<tfs::Tensor> og;
            if (!out_grads.is_none()) {
              for (nb::handle h : out_grads)
                og.push_back(h.is_none() ? tfs::Tensor() : to_tensor(h));
            }
            std::vector<tfs::GradientValue> g = t.gradient_values(
                operands(targets), operands(sources), og,
                zero ? tfs::UnconnectedGradients::kZero : tfs::UnconnectedGradients::kNone);
            nb::list out;
            for (auto& x : g) out.append(gradient_object(x));
            return out;
          },
          nb::arg("targets"), nb::arg("sources"), nb::arg("output_gradients").none(),
          nb::arg("zero"))
      .def("jacobian",
           [](GradientTape& t, nb::handle target, nb::handle sources, bool zero) {
             auto g = t.jacobian(
                 tape_operand(target), operands(sources),
                 zero ? tfs::UnconnectedGradients::kZero : tfs::UnconnectedGradients::kNone);
             nb::list out;
             for (auto& x : g) out.append(x.defined() ? nb::cast(x) : nb::none());
             return out;
           })
      .def("batch_jacobian", [](GradientTape& t, nb::handle target, nb::handle source, bool zero) {
        tfs::Tensor g = t.batch_jacobian(
            tape_operand(target), tape_operand(source),
            zero ? tfs::UnconnectedGradients::kZero : tfs::UnconnectedGradients::kNone);
        return g.defined() ? nb::cast(g) : nb::none();
      });
  def_any(m, "sparse_softmax_cross_entropy_with_logits", [](nb::handle labels, nb::handle logits) {
    return tfs::sparse_softmax_cross_entropy_with_logits(operand(labels), operand(logits));
  });
  m.def(
      "resource_gather",
      [](nb::handle var, nb::handle indices, const std::string& name) {
        return tfs::resource_gather(variable_state(var), operand(indices), name);
      },
      nb::arg("var"), nb::arg("indices"), nb::arg("name") = "Gather");
  m.def("resource_scatter", [](const std::string& op, nb::handle var, nb::handle indices,
                               nb::handle updates, const std::string& name) {
    auto v = variable_state(var);
    tfs::resource_scatter(op, v, to_tensor(indices), to_tensor(updates, v->dtype()), name);
  });
  m.def("indexed_slices_to_tensor", [](nb::handle values, nb::handle indices, nb::handle shape) {
    return tfs::indexed_slices_to_tensor(
        tfs::IndexedSlices{to_tensor(values), to_tensor(indices), to_tensor(shape)});
  });
  // record.record_operation for tf.custom_gradient: `fn` takes the list of output gradients and
  // returns one gradient (a tensor, an IndexedSlices or None) per input.
  m.def("record_operation", [](nb::handle outputs, nb::handle inputs, nb::callable fn) {
    std::vector<tfs::Tensor> outs, ins;
    for (nb::handle h : outputs) outs.push_back(to_tensor(h));
    for (nb::handle h : inputs) ins.push_back(to_tensor(h));
    nb::object held = fn;
    tfs::record_operation(outs, ins, [held](const std::vector<tfs::Tensor>& grads) {
      nb::gil_scoped_acquire gil;
      nb::list args;
      for (auto& g : grads) args.append(g.defined() ? nb::cast(g) : nb::none());
      std::vector<tfs::Tensor> out;
      for (nb::handle r : held(args)) out.push_back(r.is_none() ? tfs::Tensor() : to_tensor(r));
      return out;
    });
  });
  m.def(
      "gradients",
      [](nb::handle ys, nb::handle xs, nb::handle grad_ys, bool zero, const std::string& name) {
        std::vector<tfs::Tensor> y, x, gy;
        for (nb::handle h : ys) y.push_back(to_tensor(h));
        for (nb::handle h : xs) x.push_back(to_tensor(h));
        if (!grad_ys.is_none())
          for (nb::handle h : grad_ys) gy.push_back(h.is_none() ? tfs::Tensor() : to_tensor(h));
        nb::list out;
        for (auto& g : tfs::graph_gradients(
                 y, x, gy,
                 zero ? tfs::UnconnectedGradients::kZero : tfs::UnconnectedGradients::kNone, name))
          out.append(gradient_object(g));
        return out;
      },
      nb::arg("ys"), nb::arg("xs"), nb::arg("grad_ys").none(), nb::arg("zero"), nb::arg("name"));
  m.def("watch_warning",
        [](nb::handle dtype_obj) { return tfs::watch_warning(to_tensor(dtype_obj).dtype()); });
  m.def("tape_dtype_warning", [](nb::handle x) {
    tfs::TapeOperand o = tape_operand(x);
    return tfs::watch_warning(o.variable ? o.variable->dtype() : o.tensor.dtype());
  });
}

}  // namespace tfpy
