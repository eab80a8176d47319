// Every function in conformance/autograph/corpus converts exactly as TF 2.21's
// tf.autograph.to_code printed it (expected/<name>.py), or fails with TF's error
// (expected/<name>.error), after the normalisation documented in NOTES.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tfscope/autograph.h"

namespace {

namespace fs = std::filesystem;
const fs::path kDir = TFSCOPE_AUTOGRAPH_CONFORMANCE_DIR;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The lines whose order TF takes from hash-ordered sets: names inside one nonlocal/global
// statement, and runs of `x = ag__.Undefined('x')` at one indentation. Addresses in error
// messages vary from run to run.
std::string normalise(const std::string& text) {
  static const std::regex addr("0x[0-9a-fA-F]+");
  static const std::regex undefined(R"(^(\s*)\w+ = ag__\.Undefined\('\w+'\)$)");
  static const std::regex decl(R"(^(\s*)(nonlocal|global) (.*)$)");
  std::string t = std::regex_replace(text, addr, "0x0");
  std::vector<std::string> out, run;
  std::string run_indent;
  auto flush = [&] {
    std::sort(run.begin(), run.end());
    out.insert(out.end(), run.begin(), run.end());
    run.clear();
  };
  std::stringstream ss(t);
  std::string line;
  while (std::getline(ss, line)) {
    std::smatch m;
    if (std::regex_match(line, m, decl)) {
      std::vector<std::string> names;
      std::stringstream ns(m[3].str());
      std::string n;
      while (std::getline(ns, n, ',')) names.push_back(n.substr(n.find_first_not_of(' ')));
      std::sort(names.begin(), names.end());
      line = m[1].str() + m[2].str() + " ";
      for (size_t i = 0; i < names.size(); ++i) line += (i ? ", " : "") + names[i];
    }
    if (std::regex_match(line, m, undefined)) {
      if (!run.empty() && m[1].str() != run_indent) flush();
      run_indent = m[1].str();
      run.push_back(line);
      continue;
    }
    flush();
    out.push_back(line);
  }
  flush();
  std::string joined;
  for (auto& l : out) joined += l + "\n";
  return joined;
}

std::vector<std::string> corpus_names() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(kDir / "corpus"))
    if (e.path().extension() == ".py") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The function a corpus file asks for: CORPUS_TARGET = "Class.method", else its own name.
std::string target(const std::string& name) {
  static const std::regex re(R"re(^CORPUS_TARGET = "([\w.]+)"$)re");
  std::stringstream ss(read(kDir / "corpus" / (name + ".py")));
  std::string line;
  std::smatch m;
  while (std::getline(ss, line))
    if (std::regex_match(line, m, re)) return m[1].str();
  return name;
}

class Corpus : public testing::TestWithParam<std::string> {};

TEST_P(Corpus, MatchesTensorFlowToCode) {
  const std::string name = GetParam();
  fs::path py = kDir / "expected" / (name + ".py");
  fs::path err = kDir / "expected" / (name + ".error");
  std::string got;
  try {
    got = tfs::autograph::convert_file((kDir / "corpus" / (name + ".py")).string(), target(name))
              .converted;
  } catch (const tfs::autograph::ConversionError& e) {
    got = e.tf_type() + ": " + e.what() + "\n";
  }
  ASSERT_TRUE(fs::exists(py) || fs::exists(err)) << "no recorded TF output for " << name;
  std::string want = read(fs::exists(py) ? py : err);
  EXPECT_EQ(normalise(got), normalise(want));
}

INSTANTIATE_TEST_SUITE_P(Tf221, Corpus, testing::ValuesIn(corpus_names()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

TEST(CorpusNormalisation, SortsOnlyHashOrderedLines) {
  std::string in =
      "        nonlocal s, break_\n"
      "        z = ag__.Undefined('z')\n"
      "        a = ag__.Undefined('a')\n"
      "        ag__.for_stmt(x, None)\n";
  std::string want =
      "        nonlocal break_, s\n"
      "        a = ag__.Undefined('a')\n"
      "        z = ag__.Undefined('z')\n"
      "        ag__.for_stmt(x, None)\n";
  EXPECT_EQ(normalise(in), want);
}

TEST(CorpusSize, HasAtLeastFortyFunctions) {
  EXPECT_GE(corpus_names().size(), 40u);
}

}  // namespace
