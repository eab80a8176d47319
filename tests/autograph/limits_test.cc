// Sources Python 3.11 or TF 2.21's converter refuse end in their errors, never in a crash or a
// minute of work. Each expectation was measured: CPython 3.11's compile() on the same text, and
// tf.autograph.to_code (tensorflow-cpu 2.21.0) on the function imported from it.
#include <gtest/gtest.h>

#include <string>

#include "tfscope/autograph.h"

namespace {

using tfs::autograph::ConversionError;
using tfs::autograph::convert_source;

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// "def f(x):\n    return <expr>\n"
std::string returning(const std::string& expr) {
  return "def f(x):\n    return " + expr + "\n";
}

// "<type>: <message>" of the conversion's error, or "ok".
std::string outcome(const std::string& src) {
  try {
    convert_source(src, "f", "f.py");
    return "ok";
  } catch (const ConversionError& e) {
    return e.tf_type() + ": " + e.what();
  }
}

TEST(PythonLimits, TooManyNestedParenthesesIsPythonsSyntaxError) {
  EXPECT_EQ(outcome(returning(repeat("(", 2000) + "x" + repeat(")", 2000))),
            "SyntaxError: too many nested parentheses (f.py, line 2)");
  EXPECT_EQ(outcome(returning(repeat("[", 3000) + "x" + repeat("]", 3000))),
            "SyntaxError: too many nested parentheses (f.py, line 2)");
  EXPECT_EQ(outcome(returning(repeat("([{", 67) + "x" + repeat("}])", 67))),
            "SyntaxError: too many nested parentheses (f.py, line 2)");
  // 200 levels are Python's limit, not an error; parentheses add no node, so TF converts it
  EXPECT_EQ(outcome(returning(repeat("(", 200) + "x" + repeat(")", 200))), "ok");
}

TEST(PythonLimits, DeepUnaryChainsOverflowPythonsParser) {
  // CPython: 5962 nested unary operators or 2981 `**` are a MemoryError (its parser's stack)
  EXPECT_EQ(outcome(returning(repeat("-", 100000) + "x")), "MemoryError: ");
  EXPECT_EQ(outcome(returning("x" + repeat("**x", 100000))), "MemoryError: ");
  EXPECT_EQ(outcome(returning(repeat("-", 5962) + "x")), "MemoryError: ");
  EXPECT_EQ(outcome(returning("x" + repeat("**x", 2981))), "MemoryError: ");
  EXPECT_EQ(outcome(returning(repeat("lambda: ", 2981) + "x")), "MemoryError: ");
}

TEST(PythonLimits, TreesDeeperThanTheCompilersLimitAreRecursionErrors) {
  const std::string compile = "RecursionError: maximum recursion depth exceeded during compilation";
  EXPECT_EQ(outcome(returning("x" + repeat(".a", 50000))), compile);
  EXPECT_EQ(outcome(returning(repeat("-", 2992) + "x")), compile);
  EXPECT_EQ(outcome(returning(repeat("not ", 5961) + "x")), compile);
}

TEST(PythonLimits, IndentationAndBlockLimits) {
  std::string ifs = "def f(x):\n";
  for (int i = 1; i <= 99; ++i) ifs += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  ifs += std::string(100, ' ') + "pass\n";
  EXPECT_EQ(outcome(ifs), "IndentationError: too many levels of indentation (f.py, line 101)");
  std::string loops = "def f(x):\n";
  for (int i = 1; i <= 21; ++i) loops += std::string(static_cast<size_t>(i), ' ') + "for x in x:\n";
  loops += std::string(22, ' ') + "pass\n";
  EXPECT_EQ(outcome(loops), "SyntaxError: too many statically nested blocks (f.py, line 22)");
}

TEST(PythonLimits, TabsAndSpacesThatDisagreeAreTabErrors) {
  EXPECT_EQ(outcome("def f(x):\n    if x:\n\treturn 1\n        return 2\n"),
            "TabError: inconsistent use of tabs and spaces in indentation (f.py, line 3)");
  EXPECT_EQ(outcome("def f(x):\n    if x:\n        y = 1\n\treturn y\n"),
            "TabError: inconsistent use of tabs and spaces in indentation (f.py, line 4)");
  EXPECT_EQ(outcome("def f(x):\n  if x:\n     return 1\n    return 2\n"),
            "IndentationError: unindent does not match any outer indentation level (f.py, line 4)");
  // a tab alone, used consistently, is fine
  EXPECT_EQ(outcome("def f(x):\n\tif x:\n\t\treturn 1\n\treturn 2\n"), "ok");
}

TEST(ConverterLimits, TfsConverterRecursesPastPythonsLimit) {
  // Deepest trees tf.autograph.to_code converts, by kind; one more level is a RecursionError.
  const std::string rec = "RecursionError: maximum recursion depth exceeded";
  const std::pair<std::string, std::string> kinds[] = {
      {"x" + repeat(".a", 193), "x" + repeat(".a", 194)},
      {repeat("-", 193) + "x", repeat("-", 194) + "x"},
      {"x" + repeat("+x", 233), "x" + repeat("+x", 234)},
      {"x" + repeat("**x", 233), "x" + repeat("**x", 234)},
      {repeat("[", 155) + "x" + repeat("]", 155), repeat("[", 156) + "x" + repeat("]", 156)},
      {"x" + repeat("()", 155), "x" + repeat("()", 156)},
  };
  for (const auto& [deepest, deeper] : kinds) {
    EXPECT_EQ(outcome(returning(deepest)), "ok") << deepest.substr(0, 20);
    EXPECT_EQ(outcome(returning(deeper)), rec) << deeper.substr(0, 20);
  }
  EXPECT_EQ(outcome(returning("x" + repeat(".a", 2000))), rec);  // CPython compiles this one
}

TEST(ConverterLimits, CoroutineFunctionIsUnknownToGast) {
  EXPECT_EQ(outcome("async def f(x):\n    return x\n"),
            "ConversionError: converting <function f at 0x0>: ValueError: Unknown node type "
            "<gast.gast.AsyncFunctionDef object at 0x0>");
  // a coroutine defined inside is left as it is
  EXPECT_EQ(outcome("def f(x):\n    async def h():\n        return 1\n    return x\n"), "ok");
}

}  // namespace
