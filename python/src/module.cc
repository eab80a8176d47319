// tfscope._core: the nanobind module over the one C++ engine.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "convert.h"
#include "tfscope/detail/namedtuple_class.h"
#include "tfscope/interrupt.h"

namespace tfpy {
void bind_tensor(nb::module_& m);
void bind_function(nb::module_& m);
void bind_autograph(nb::module_& m);
void bind_savedmodel(nb::module_& m);
void bind_lite(nb::module_& m);
void bind_lint(nb::module_& m);
void bind_data(nb::module_& m);
void bind_stats(nb::module_& m);
void bind_conv(nb::module_& m);
void bind_index(nb::module_& m);
void bind_hlo(nb::module_& m);
void bind_ops(nb::module_& m);
void bind_tape(nb::module_& m);
void bind_graphdef(nb::module_& m);
void bind_graph_text(nb::module_& m);
void bind_trace_type(nb::module_& m);
void bind_profile(nb::module_& m);
void bind_watch(nb::module_& m);

namespace {

// Ctrl-C during a long While: run Python's signal handlers; KeyboardInterrupt (or whatever a
// handler raises) unwinds the computation and reaches the caller as itself.
void check_python_signals() {
  if (!Py_IsInitialized()) return;
  nb::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) throw nb::python_error();
}

}  // namespace
}  // namespace tfpy

NB_MODULE(_core, m) {
  using namespace tfpy;
  tfs::set_interrupt_check(&check_python_signals);
  tfs::detail::set_namedtuple_class_repr(&namedtuple_class_repr);
  m.def("_register", [](nb::object dtype_factory, nb::object shape_factory, nb::object spec_class,
                        nb::object spec_factory, nb::object exceptions, nb::object namedtuple_factory,
                        nb::object variable_class) {
    Registry& r = registry();
    r.dtype_factory = dtype_factory;
    r.shape_factory = shape_factory;
    r.tensor_spec_class = spec_class;
    r.spec_factory = spec_factory;
    r.exceptions = exceptions;
    r.namedtuple_factory = namedtuple_factory;
    r.variable_class = variable_class;
    r.numpy = nb::module_::import_("numpy");
  });
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const tfs::Error& e) {
      nb::object exc = registry().exceptions.is_valid() ? registry().exceptions : nb::object();
      std::string py = e.python_type();
      if (exc.is_valid() && nb::cast<bool>(exc.attr("__contains__")(py))) {
        nb::object cls = exc[py.c_str()];
        // TF's OpErrors take (node_def, op, message): its runtime raises them with None, None.
        nb::object op_error = exc.attr("get")("OpError");
        if (!op_error.is_none() && PyObject_IsSubclass(cls.ptr(), op_error.ptr()) == 1) {
          nb::object args = nb::make_tuple(nb::none(), nb::none(), safe_str(e.what()));
          PyErr_SetObject(cls.ptr(), args.ptr());
          return;
        }
        set_error(cls.ptr(), e.what());
        return;
      }
      set_error(PyExc_RuntimeError, e.what());
    }
  });
  bind_tensor(m);
  bind_function(m);
  bind_autograph(m);
  bind_savedmodel(m);
  bind_lite(m);
  bind_lint(m);
  bind_data(m);
  bind_stats(m);
  bind_conv(m);
  bind_index(m);
  bind_hlo(m);
  bind_ops(m);
  bind_tape(m);
  bind_graphdef(m);
  bind_graph_text(m);
  bind_trace_type(m);
  bind_profile(m);
  bind_watch(m);
}
