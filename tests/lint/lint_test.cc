// The lint layer's interfaces: positions, noqa, selection, syntax errors, configuration, reports
// and the ledger join.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tfscope/lint.h"

namespace {

using tfs::lint::Finding;
using tfs::lint::lint_source;

std::vector<std::string> codes(const std::vector<Finding>& fs) {
  std::vector<std::string> out;
  for (auto& f : fs) out.push_back(f.code);
  return out;
}

const char* kPrintInFunction =
    "import tensorflow as tf\n"
    "\n"
    "@tf.function\n"
    "def f(x):\n"
    "    y = x + 1;  print('traced', y)\n"
    "    return y\n";

TEST(Lint, FindingsCarryLineAndColumnOfTheCall) {
  auto fs = lint_source(kPrintInFunction, "f.py");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].path, "f.py");
  EXPECT_EQ(fs[0].code, "TFS201");
  EXPECT_EQ(fs[0].line, 5);
  EXPECT_EQ(fs[0].col, 17);  // CPython: print's col_offset is 16
  EXPECT_EQ(fs[0].function, "f");
  EXPECT_EQ(fs[0].function_first_line, 3);  // the decorator line, as __code__.co_firstlineno
  EXPECT_EQ(fs[0].function_last_line, 6);
  EXPECT_FALSE(fs[0].hint.empty());
}

TEST(Lint, NoqaWithTheCodeSuppressesIt) {
  std::string src = kPrintInFunction;
  src.replace(src.find("y)\n"), 3, "y)  # noqa: TFS201\n");
  EXPECT_TRUE(lint_source(src, "f.py").empty());
}

TEST(Lint, NoqaWithAnotherCodeKeepsTheFinding) {
  std::string src = kPrintInFunction;
  src.replace(src.find("y)\n"), 3, "y)  # noqa: TFS202, TFS101\n");
  EXPECT_EQ(codes(lint_source(src, "f.py")), std::vector<std::string>{"TFS201"});
}

TEST(Lint, BlanketNoqaAndPrefixNoqaSuppress) {
  std::string src = kPrintInFunction;
  std::string blanket = src, prefix = src;
  blanket.replace(blanket.find("y)\n"), 3, "y)  # NOQA\n");
  prefix.replace(prefix.find("y)\n"), 3, "y)  # noqa:TFS2\n");
  EXPECT_TRUE(lint_source(blanket, "f.py").empty());
  EXPECT_TRUE(lint_source(prefix, "f.py").empty());
}

TEST(Lint, AHashInsideAStringIsNoComment) {
  std::string src = kPrintInFunction;
  src.replace(src.find("'traced'"), 8, "'# noqa'");
  EXPECT_EQ(codes(lint_source(src, "f.py")), std::vector<std::string>{"TFS201"});
}

TEST(Lint, SelectAndIgnoreTakeCodesAndPrefixes) {
  tfs::lint::Options o;
  o.selection.select = {"TFS1"};
  EXPECT_TRUE(lint_source(kPrintInFunction, "f.py", o).empty());
  o.selection.select = {"TFS2"};
  EXPECT_EQ(lint_source(kPrintInFunction, "f.py", o).size(), 1u);
  o.selection.ignore = {"TFS201"};
  EXPECT_TRUE(lint_source(kPrintInFunction, "f.py", o).empty());
}

TEST(Lint, ASyntaxErrorIsOneFindingAtItsLine) {
  auto fs = lint_source("import tensorflow as tf\n\ndef f(x:\n    return x\n", "bad.py");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].code, "TFS000");
  EXPECT_EQ(fs[0].line, 4);
  EXPECT_EQ(fs[0].message.rfind("SyntaxError: ", 0), 0u) << fs[0].message;
  // Python 2 print statements, stray indentation, unterminated strings: never a crash
  for (const char* bad : {"print 'x'\n", "  x = 1\n", "s = 'abc\n", "def f(:\n", "\x01\n"})
    EXPECT_EQ(codes(lint_source(bad, "bad.py")), std::vector<std::string>{"TFS000"}) << bad;
}

// CPython 3.11 refuses more than 200 nested brackets ("too many nested parentheses") and trees
// deeper than about 3000 levels (RecursionError during ast construction: 2988 levels of
// `1+1+...` parse, 10000 do not); lint reports the same instead of overflowing its stack.
TEST(Lint, NestingPastCPythonsLimitsIsReportedNotACrash) {
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  EXPECT_TRUE(
      lint_source("x = " + repeat("(", 200) + "1" + repeat(")", 200) + "\n", "m.py").empty());
  auto parens = lint_source("x = " + repeat("[", 201) + repeat("]", 201) + "\n", "m.py");
  ASSERT_EQ(codes(parens), std::vector<std::string>{"TFS000"});
  EXPECT_EQ(parens[0].message, "SyntaxError: too many nested parentheses");
  EXPECT_TRUE(lint_source("x = " + repeat("1+", 2900) + "1\n", "m.py").empty());
  for (std::string deep :
       {"x = " + repeat("1+", 100000) + "1\n", "x = y" + repeat(".a", 50000) + "\n",
        "x = " + repeat("-", 100000) + "1\n", "x = " + repeat("2**", 100000) + "2\n"}) {
    auto fs = lint_source(deep, "m.py");
    ASSERT_EQ(codes(fs), std::vector<std::string>{"TFS000"}) << deep.substr(0, 20);
    EXPECT_EQ(fs[0].message,
              "RecursionError: maximum recursion depth exceeded during ast construction");
  }
}

TEST(Lint, EveryRuleHasACodeANameASummaryAndAHint) {
  std::set<std::string> seen;
  for (auto& r : tfs::lint::rules()) {
    EXPECT_EQ(r.code.size(), 6u);
    EXPECT_TRUE(seen.insert(std::string(r.code)).second) << r.code;
    EXPECT_FALSE(r.name.empty());
    EXPECT_FALSE(r.summary.empty());
    EXPECT_FALSE(r.hint.empty());
  }
  EXPECT_GE(seen.size(), 24u);
}

// ---------------------------------------------------------------- configuration

TEST(LintConfig, ReadsTheToolTable) {
  auto c = tfs::lint::parse_config(
      "[project]\nname = \"x\"\nclassifiers = [\n  \"A\",  # comment\n  \"B\",\n]\n"
      "[tool.other]\nopt = { a = 1, b = [2, 3] }\ntext = '''\nmulti\n'''\n"
      "[tool.tfscope.lint]\nselect = [\"TFS1\", \"TFS203\"]\nignore = ['TFS105']\n"
      "exclude = [\"build\", \"*_pb2.py\"]\nunroll-threshold = 50\n",
      "pyproject.toml");
  EXPECT_TRUE(c.has_table);
  EXPECT_EQ(*c.select, (std::vector<std::string>{"TFS1", "TFS203"}));
  EXPECT_EQ(*c.ignore, std::vector<std::string>{"TFS105"});
  EXPECT_EQ(c.exclude, (std::vector<std::string>{"build", "*_pb2.py"}));
  EXPECT_EQ(*c.unroll_threshold, 50);
}

TEST(LintConfig, TheRepositorysOwnPyprojectParses) {
  std::ifstream in(std::string(TFSCOPE_LINT_CORPUS_DIR) + "/../../../pyproject.toml");
  std::stringstream ss;
  ss << in.rdbuf();
  ASSERT_FALSE(ss.str().empty());
  EXPECT_FALSE(tfs::lint::parse_config(ss.str(), "pyproject.toml").has_table);
}

TEST(LintConfig, BadFilesAreUsageErrorsNamingTheLine) {
  auto error = [](const std::string& text) {
    try {
      tfs::lint::parse_config(text, "p.toml");
    } catch (const tfs::lint::UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error("[tool.tfscope.lint]\nselect = [\"TFS1\"\n"),
            "[lint] p.toml:3: expected ',' or ']' in an array");
  EXPECT_EQ(error("[tool.tfscope.lint]\nselect = [\"E501\"]\n"),
            "[lint] p.toml: select: unknown rule code 'E501'");
  EXPECT_NE(error("[tool.tfscope.lint]\ncolour = 1\n").find("unknown option 'colour'"),
            std::string::npos);
  EXPECT_EQ(error("a = 1\na = 2\n"), "[lint] p.toml:2: duplicate key 'a'");
}

TEST(LintConfig, FoundByWalkingUpFromTheLintedPath) {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("tfscope_lint_cfg_" + std::to_string(::getpid()));
  fs::create_directories(root / "pkg" / "sub");
  std::ofstream(root / "pyproject.toml") << "[tool.tfscope.lint]\nignore = [\"TFS201\"]\n";
  std::ofstream(root / "pkg" / "pyproject.toml") << "[project]\nname = \"pkg\"\n";  // no table
  std::ofstream(root / "pkg" / "sub" / "m.py") << "x = 1\n";
  auto c = tfs::lint::find_config((root / "pkg" / "sub" / "m.py").string());
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->file, (root / "pyproject.toml").string());
  EXPECT_EQ(*c->ignore, std::vector<std::string>{"TFS201"});
  auto files = tfs::lint::collect_files({root.string()}, {"sub"});
  EXPECT_TRUE(files.empty());
  files = tfs::lint::collect_files({root.string()});
  EXPECT_EQ(files, std::vector<std::string>{(root / "pkg" / "sub" / "m.py").string()});
  fs::remove_all(root);
  EXPECT_THROW(tfs::lint::collect_files({(root / "missing").string()}), tfs::lint::UsageError);
}

// ---------------------------------------------------------------- reports

TEST(LintReport, TextLinesAreFileLineColCodeMessage) {
  auto fs = lint_source(kPrintInFunction, "pkg/f.py");
  std::string text = tfs::lint::text_report(fs, 1);
  EXPECT_EQ(text.rfind("pkg/f.py:5:17: TFS201 print() inside tf.function `f` runs only while "
                       "tracing, not on every call\n",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("Found 1 finding in 1 file.\n"), std::string::npos);
  EXPECT_EQ(tfs::lint::text_report({}, 3), "All checks passed (3 files).\n");
}

TEST(LintReport, SarifNamesTheRulesThatFiredAndEncodesPaths) {
  auto fs = lint_source(kPrintInFunction, "my dir/f.py");
  auto j = nlohmann::json::parse(tfs::lint::sarif_report(fs));
  EXPECT_EQ(j["version"], "2.1.0");
  auto& run = j["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["rules"].size(), 1u);
  EXPECT_EQ(run["tool"]["driver"]["rules"][0]["id"], "TFS201");
  auto& loc = run["results"][0]["locations"][0]["physicalLocation"];
  EXPECT_EQ(loc["artifactLocation"]["uri"], "my%20dir/f.py");
  EXPECT_EQ(loc["region"]["startLine"], 5);
  EXPECT_EQ(loc["region"]["startColumn"], 17);
  auto js = nlohmann::json::parse(tfs::lint::json_report(fs));
  EXPECT_EQ(js[0]["code"], "TFS201");
  EXPECT_EQ(js[0]["rule"], "print-in-tf-function");
}

// ---------------------------------------------------------------- ledger join

// A ledger as tfscope's fn.ledger_json() writes it for `step` traced three times (recorded from
// tfscope's Python API running tests/lint/fixtures/retrace_step.py).
TEST(LintLedger, RetracesInTheLedgerConfirmTheFinding) {
  const std::string dir = std::string(TFSCOPE_LINT_CORPUS_DIR) + "/../fixtures/";
  std::ifstream src_in(dir + "retrace_step.py"), ledger_in(dir + "retrace_step.ledger.json");
  std::stringstream src, ledger;
  src << src_in.rdbuf();
  ledger << ledger_in.rdbuf();
  auto fs = lint_source(src.str(), "/work/retrace_step.py");
  ASSERT_EQ(codes(fs), (std::vector<std::string>{"TFS201", "TFS103"}));
  auto l = nlohmann::json::parse(ledger.str());
  l["file"] = "/work/retrace_step.py";  // where the recording ran
  EXPECT_EQ(tfs::lint::confirm_with_ledger(fs, l.dump()), 2);
  EXPECT_TRUE(fs[1].confirmed);
  EXPECT_NE(fs[1].evidence.find("3 traces in 4 calls"), std::string::npos) << fs[1].evidence;
  EXPECT_NE(fs[0].evidence.find("3 of 4 calls"), std::string::npos) << fs[0].evidence;
  // another file's ledger confirms nothing
  auto other = lint_source(src.str(), "/work/other.py");
  EXPECT_EQ(tfs::lint::confirm_with_ledger(other, l.dump()), 0);
  EXPECT_THROW(tfs::lint::confirm_with_ledger(other, "{not json"), tfs::lint::UsageError);
}

}  // namespace
