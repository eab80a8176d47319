// The labelled corpus: every snippet in tests/lint/corpus says which codes lint must report
// (`# expect:`) and what real TensorFlow did when it ran (`# tf:`, recorded by
// confirm_with_tf.py in tf_outcomes.json). Precision and recall over (snippet, code) pairs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tfscope/lint.h"

namespace {

namespace fs = std::filesystem;

struct Snippet {
  std::string name, source, tf_label;
  std::set<std::string> expected;
};

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string header(const std::string& src, const std::string& key) {
  std::istringstream in(src);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("# " + key + ": ", 0) == 0) return line.substr(key.size() + 4);
  return "";
}

std::vector<Snippet> corpus() {
  std::vector<Snippet> out;
  for (auto& e : fs::directory_iterator(TFSCOPE_LINT_CORPUS_DIR)) {
    if (e.path().extension() != ".py") continue;
    Snippet s;
    s.name = e.path().stem().string();
    s.source = read(e.path());
    s.tf_label = header(s.source, "tf");
    std::string expect = header(s.source, "expect");
    std::istringstream codes(expect);
    std::string c;
    while (codes >> c)
      if (c != "none") s.expected.insert(c);
    out.push_back(s);
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.name < b.name; });
  return out;
}

TEST(LintCorpus, HasAtLeastSixtyHazardousAndSixtyCleanSnippets) {
  int hazardous = 0, clean = 0;
  for (auto& s : corpus()) (s.expected.empty() ? clean : hazardous)++;
  EXPECT_GE(hazardous, 60);
  EXPECT_GE(clean, 60);
}

TEST(LintCorpus, PrecisionAtLeast95AndRecallAtLeast90) {
  int tp = 0, fp = 0, fn = 0;
  for (auto& s : corpus()) {
    std::set<std::string> got;
    for (auto& f : tfs::lint::lint_source(s.source, s.name + ".py")) got.insert(f.code);
    for (auto& c : got) {
      if (s.expected.count(c)) {
        ++tp;
      } else {
        ++fp;
        std::printf("  false positive: %s %s\n", s.name.c_str(), c.c_str());
      }
    }
    for (auto& c : s.expected)
      if (!got.count(c)) {
        ++fn;
        std::printf("  missed: %s %s\n", s.name.c_str(), c.c_str());
      }
  }
  double precision = tp + fp ? double(tp) / (tp + fp) : 1.0;
  double recall = tp + fn ? double(tp) / (tp + fn) : 1.0;
  std::printf(
      "lint corpus: %d true positives, %d false positives, %d missed: precision %.3f, "
      "recall %.3f\n",
      tp, fp, fn, precision, recall);
  EXPECT_GE(precision, 0.95);
  EXPECT_GE(recall, 0.90);
}

// The labels are TF's truth: each `# tf:` label holds for what TF 2.21 did with the snippet, as
// recorded from the oracle (retrace = some function traced twice or more, counting every
// Function made from one def; no-retrace = none did and nothing raised).
bool label_holds(const std::string& label, const nlohmann::json& o) {
  int traces = o.at("max_traces").get<int>();
  bool error = !o.at("error").is_null();
  bool warning = o.at("autograph_warning").get<bool>();
  int ops = o.at("max_graph_ops").get<int>();
  if (label == "retrace") return traces >= 2;
  if (label == "no-retrace") return traces <= 1 && !error;
  if (label == "ok") return !error && !warning;
  if (label == "autograph-warning") return warning;
  if (label.rfind("error:", 0) == 0) return error && o.at("error") == label.substr(6);
  if (label.rfind("graph-ops>=", 0) == 0) return ops >= std::stoi(label.substr(11));
  if (label.rfind("graph-ops<", 0) == 0) return ops < std::stoi(label.substr(10));
  ADD_FAILURE() << "unknown label " << label;
  return false;
}

TEST(LintCorpus, LabelsAgreeWithWhatTensorFlowDid) {
  auto record = nlohmann::json::parse(read(fs::path(TFSCOPE_LINT_CORPUS_DIR) / "tf_outcomes.json"));
  EXPECT_EQ(record.at("tensorflow"), "2.21.0");
  const auto& outcomes = record.at("outcomes");
  int retrace_checked = 0;
  for (auto& s : corpus()) {
    ASSERT_TRUE(outcomes.contains(s.name)) << s.name << " was not run under TF";
    EXPECT_TRUE(label_holds(s.tf_label, outcomes.at(s.name)))
        << s.name << ": label '" << s.tf_label << "' but TF did " << outcomes.at(s.name).dump();
    bool retrace_rule = !s.expected.empty() && s.expected.begin()->rfind("TFS1", 0) == 0;
    if (retrace_rule) {
      EXPECT_EQ(s.tf_label, "retrace") << s.name;
      ++retrace_checked;
    }
  }
  EXPECT_GE(retrace_checked, 25);
}

}  // namespace
