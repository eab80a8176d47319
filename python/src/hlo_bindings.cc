// The compiler IR: a concrete function's graph as HLO text (tfscope.experimental_get_compiler_ir).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "convert.h"
#include "tfscope/function.h"
#include "tfscope/hlo.h"

namespace tfpy {

void bind_hlo(nb::module_& m) {
  m.def("compiler_ir", [](const tfs::ConcreteFunction& cf, const std::string& stage) {
    return tfs::hlo::compiler_ir(cf.graph_function(), stage);
  });
  m.def("hlo_normalize", [](const std::string& text) { return tfs::hlo::normalize(text); });
}

}  // namespace tfpy
