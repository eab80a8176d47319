// report_graph_def against TF 2.21's own facts about a concrete function's graph, recorded with the
// GraphDef TF serialized (fixtures/tf_graph_def.{pb,json}, from record_tf_graph_def.py): ops by
// type as graph.get_operations() counts them (an op tfscope does not define included), the dtypes
// and shapes of inputs, captures and outputs, a dtype tfscope has none for (float16).
#include "tfscope/graph_def_report.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tfscope/proto/graph.pb.h"
#include "tfscope/tensor_bundle.h"

namespace tfs {
namespace {

const std::string kDir = TFSCOPE_GRAPH_FIXTURES;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Recorded {
  nlohmann::json tf;
  GraphDefFacts facts;
};

Recorded recorded() {
  Recorded r;
  r.tf = nlohmann::json::parse(slurp(kDir + "/tf_graph_def.json"));
  r.facts.function_name = r.tf["function_name"];
  r.facts.graph_name = r.tf["graph_name"];
  r.facts.signature = r.tf["signature"];
  for (auto& t : r.tf["input_tensors"]) r.facts.inputs.push_back(t);
  for (auto& t : r.tf["capture_tensors"]) r.facts.captures.emplace_back(t[0], t[1]);
  for (auto& t : r.tf["output_tensors"]) r.facts.outputs.push_back(t);
  return r;
}

TEST(GraphDefReport, OpsByTypeAreTheOnesTfCounted) {
  Recorded r = recorded();
  GraphReport rep = report_graph_def(slurp(kDir + "/tf_graph_def.pb"), r.facts);
  EXPECT_EQ(rep.num_nodes, r.tf["num_nodes"].get<int>());
  std::map<std::string, int> tf_counts = r.tf["op_counts"];
  EXPECT_EQ(rep.op_counts, tf_counts);
  EXPECT_EQ(rep.op_counts.at("BesselI0e"), 1);  // an op tfscope does not define
  std::vector<std::string> library = r.tf["library"];
  EXPECT_EQ(rep.library, library);
}

TEST(GraphDefReport, TensorsHaveTfsDtypesAndShapes) {
  Recorded r = recorded();
  GraphReport rep = report_graph_def(slurp(kDir + "/tf_graph_def.pb"), r.facts);
  auto j = nlohmann::json::parse(rep.json());
  for (const char* part : {"inputs", "outputs"}) {
    ASSERT_EQ(j[part].size(), r.tf[part].size()) << part;
    for (size_t i = 0; i < j[part].size(); ++i) {
      EXPECT_EQ(j[part][i]["name"], r.tf[part][i]["name"]);
      EXPECT_EQ(j[part][i]["dtype"], r.tf[part][i]["dtype"]) << j[part][i]["name"];
      EXPECT_EQ(j[part][i]["shape"], r.tf[part][i]["shape"]) << j[part][i]["name"];
    }
  }
  ASSERT_EQ(j["captures"].size(), r.tf["captures"].size());
  for (size_t i = 0; i < j["captures"].size(); ++i) {
    for (const char* k : {"name", "dtype", "shape", "kind"}) {
      EXPECT_EQ(j["captures"][i][k], r.tf["captures"][i][k]) << k;
    }
  }
  EXPECT_EQ(j["signature"], r.tf["signature"]);
  EXPECT_EQ(j["inputs"][1]["dtype"], "float16");  // TF's name, a dtype tfscope lacks
  EXPECT_NE(rep.text().find("    BesselI0e: 1\n"), std::string::npos) << rep.text();
  EXPECT_NE(rep.dot().find("\"x\" -> \"add\" [label=\"float32 (None, 2)\"]"), std::string::npos)
      << rep.dot();
}

// The C API's serialization has no `_output_shapes`: the tensors' shapes given apart (as the watch
// passes the FuncGraph's) make the same report as TF's add_shapes=True GraphDef, and a given shape
// is the one reported.
TEST(GraphDefReport, ShapesGivenApartMakeTheSameReport) {
  Recorded r = recorded();
  const std::string annotated = slurp(kDir + "/tf_graph_def.pb");
  tensorflow::GraphDef gd;
  ASSERT_TRUE(gd.ParseFromString(annotated));
  std::map<std::string, tensorflow::AttrValue> shapes;
  for (auto& n : *gd.mutable_node()) {
    auto it = n.attr().find("_output_shapes");
    if (it == n.attr().end()) continue;
    shapes[n.name()] = it->second;
    n.mutable_attr()->erase("_output_shapes");
  }
  const std::string bare = gd.SerializeAsString();
  GraphDefFacts given = r.facts;
  for (const std::string& t : r.facts.outputs) {
    auto colon = t.rfind(':');
    const auto& s = shapes.at(t.substr(0, colon)).list().shape(std::stoi(t.substr(colon + 1)));
    std::vector<int64_t> dims;
    for (const auto& d : s.dim()) dims.push_back(d.size());
    given.shapes[t] = s.unknown_rank() ? std::nullopt : std::optional(dims);
  }
  auto expected = nlohmann::json::parse(report_graph_def(annotated, r.facts).json());
  EXPECT_EQ(nlohmann::json::parse(report_graph_def(bare, given).json()), expected);
  // without them the outputs' shapes are unknown
  auto unshaped = nlohmann::json::parse(report_graph_def(bare, r.facts).json());
  EXPECT_NE(unshaped["outputs"], expected["outputs"]);
  given.shapes[r.facts.inputs[0]] = std::vector<int64_t>{7, -1};
  given.shapes[r.facts.outputs[0]] = std::nullopt;
  auto j = nlohmann::json::parse(report_graph_def(bare, given).json());
  EXPECT_EQ(j["inputs"][0]["shape"], "(7, None)");
  EXPECT_EQ(j["outputs"][0]["shape"], "<unknown>");
}

TEST(GraphDefReport, BadInputIsOneLine) {
  Recorded r = recorded();
  GraphDefFacts wrong = r.facts;
  wrong.outputs.push_back("nope:0");
  try {
    report_graph_def(slurp(kDir + "/tf_graph_def.pb"), wrong);
    FAIL() << "no error";
  } catch (const savedmodel::FormatError& e) {
    EXPECT_EQ(std::string(e.what()),
              "[graphdef] " + r.facts.function_name + ": no node for tensor 'nope:0'");
  }
  try {
    report_graph_def(std::string("\xff\xff\xff", 3), r.facts);
    FAIL() << "no error";
  } catch (const savedmodel::FormatError& e) {
    EXPECT_EQ(std::string(e.what()),
              "[graphdef] " + r.facts.function_name + ": the bytes are not a serialized GraphDef");
  }
}

}  // namespace
}  // namespace tfs
