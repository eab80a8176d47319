// tfs::report_graph_def for Python: the GraphReport of a real TF concrete function, read from the
// GraphDef TF serialized (tfscope.watch and tfscope.lab call it with TF's FuncGraph facts).
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/graph_def_report.h"

namespace tfpy {

void bind_graphdef(nb::module_& m) {
  nb::class_<tfs::GraphReport>(m, "GraphReportCore")
      .def_ro("function_name", &tfs::GraphReport::function_name)
      .def_ro("num_nodes", &tfs::GraphReport::num_nodes)
      .def_ro("op_counts", &tfs::GraphReport::op_counts)
      .def("text", &tfs::GraphReport::text)
      .def("json", &tfs::GraphReport::json)
      .def("dot", &tfs::GraphReport::dot);

  m.def(
      "graph_def_report",
      [](nb::bytes graph_def, std::string function_name, std::string graph_name,
         std::string signature, std::vector<std::string> inputs,
         std::vector<std::pair<std::string, std::string>> captures,
         std::vector<std::string> outputs,
         std::map<std::string, std::optional<std::vector<int64_t>>> shapes) {
        tfs::GraphDefFacts facts{std::move(function_name), std::move(graph_name),
                                 std::move(signature),     std::move(inputs),
                                 std::move(captures),      std::move(outputs),
                                 std::move(shapes)};
        std::string_view bytes(graph_def.c_str(), graph_def.size());
        return tfs::report_graph_def(bytes, facts);
      },
      nb::arg("graph_def"), nb::arg("function_name"), nb::arg("graph_name") = "",
      nb::arg("signature") = "", nb::arg("inputs") = std::vector<std::string>(),
      nb::arg("captures") = std::vector<std::pair<std::string, std::string>>(),
      nb::arg("outputs") = std::vector<std::string>(),
      nb::arg("shapes") = std::map<std::string, std::optional<std::vector<int64_t>>>());
}

}  // namespace tfpy
