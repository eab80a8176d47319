// tf.GradientTape's engine half (include/tfscope/tape.h); the Python surface, nests and warnings
// are in tfscope/_tape.py.
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/ops_loss.h"
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
            std::vector<tfs::Tensor> g;
            {
              g = t.gradient(
                  operands(targets), operands(sources), og,
                  zero ? tfs::UnconnectedGradients::kZero : tfs::UnconnectedGradients::kNone);
            }
            nb::list out;
            for (auto& x : g) out.append(x.defined() ? nb::cast(x) : nb::none());
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
  m.def("watch_warning",
        [](nb::handle dtype_obj) { return tfs::watch_warning(to_tensor(dtype_obj).dtype()); });
  m.def("tape_dtype_warning", [](nb::handle x) {
    tfs::TapeOperand o = tape_operand(x);
    return tfs::watch_warning(o.variable ? o.variable->dtype() : o.tensor.dtype());
  });
}

}  // namespace tfpy
