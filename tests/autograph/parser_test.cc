// Parsing then printing with ast.unparse's rules gives what CPython 3.11's
// ast.unparse(ast.parse(src)) gives (expectations checked against CPython).
#include "parser.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <tuple>

#include "tfscope/autograph.h"
#include "unparse.h"

namespace {

using namespace tfs::autograph::detail;

std::string roundtrip(const std::string& src) {
  return unparse(parse_module(src).body);
}
std::string expr(const std::string& src) {
  return unparse(parse_expression(src));
}

TEST(Parser, BinaryOperatorsKeepOnlyNeededParentheses) {
  EXPECT_EQ(expr("(a + b) * c - (d - e)"), "(a + b) * c - (d - e)");
  EXPECT_EQ(expr("((a * b)) + c"), "a * b + c");
  EXPECT_EQ(expr("-(x ** 2) ** -y"), "-(x ** 2) ** (-y)");
  EXPECT_EQ(expr("(a ** b) ** c"), "(a ** b) ** c");
}

TEST(Parser, BooleanAndComparisonPrecedence) {
  EXPECT_EQ(expr("not (a and b) or c < d <= e"), "not (a and b) or c < d <= e");
  EXPECT_EQ(expr("a if (b if c else d) else e"), "a if (b if c else d) else e");
  EXPECT_EQ(expr("x is not None and y not in z"), "x is not None and y not in z");
}

TEST(Parser, TuplesPrintWithParenthesesExceptAsTargets) {
  EXPECT_EQ(roundtrip("a, b = b, a\n"), "a, b = (b, a)");
  EXPECT_EQ(roundtrip("x, = y\n"), "x, = y");
  EXPECT_EQ(roundtrip("for i, (j, k) in z:\n  pass\n"), "for i, (j, k) in z:\n    pass");
  EXPECT_EQ(expr("d[1, 2:3]"), "d[1, 2:3]");
}

TEST(Parser, CallsWithStarArgsAndKeywords) {
  EXPECT_EQ(expr("f(a, *b, k=1, **kw)"), "f(a, *b, k=1, **kw)");
  EXPECT_EQ(expr("f(x for x in y)"), "f((x for x in y))");
}

TEST(Parser, ComprehensionsAndDisplays) {
  EXPECT_EQ(expr("[v * 2 for v in xs if v > 0 if v < 9]"), "[v * 2 for v in xs if v > 0 if v < 9]");
  EXPECT_EQ(expr("{k: v for k, v in d.items()}"), "{k: v for k, v in d.items()}");
  EXPECT_EQ(expr("{**a, 'b': 1}"), "{**a, 'b': 1}");
  EXPECT_EQ(expr("{*()}"), "{*()}");
}

TEST(Parser, LambdaWithDefaultsAndStarArgs) {
  EXPECT_EQ(expr("lambda x, y=1, *a, k, **kw: x"), "lambda x, y=1, *a, k, **kw: x");
  EXPECT_EQ(expr("lambda: 0"), "lambda: 0");
}

TEST(Parser, WalrusNeedsParenthesesAtTopLevel) {
  EXPECT_EQ(expr("(n := len(a))"), "(n := len(a))");
}

TEST(Parser, FStringsKeepConversionsAndFormatSpecs) {
  EXPECT_EQ(expr("f'{a!r:>{w}} {b + 1}'"), "f'{a!r:>{w}} {b + 1}'");
  EXPECT_EQ(expr("f\"it's {x}\""), "f\"it's {x}\"");
}

TEST(Parser, StringLiteralsPrintAsRepr) {
  EXPECT_EQ(expr("\"a\" 'b'"), "'ab'");
  EXPECT_EQ(expr("\"it's\""), "\"it's\"");
  EXPECT_EQ(expr("'tab\\t\\x00'"), "'tab\\t\\x00'");
  EXPECT_EQ(expr("r'\\d'"), "'\\\\d'");
  EXPECT_EQ(expr("b'\\xff'"), "b'\\xff'");
}

TEST(Parser, NumbersPrintAsPythonRepr) {
  EXPECT_EQ(expr("0x10 + 1_000"), "16 + 1000");
  EXPECT_EQ(expr("1e3 + 1e-7 + 1e16 + 0.1"), "1000.0 + 1e-07 + 1e+16 + 0.1");
  EXPECT_EQ(expr("2j"), "2j");
}

TEST(Parser, CompoundStatementsWithElifTryAndWith) {
  EXPECT_EQ(roundtrip("if a:\n  b\nelif c:\n  d\nelse:\n  e\n"),
            "if a:\n    b\nelif c:\n    d\nelse:\n    e");
  EXPECT_EQ(roundtrip("try:\n  a\nexcept (E, F) as e:\n  b\nelse:\n  c\nfinally:\n  d\n"),
            "try:\n    a\nexcept (E, F) as e:\n    b\nelse:\n    c\nfinally:\n    d");
  EXPECT_EQ(roundtrip("with a as b, c:\n  pass\n"), "with a as b, c:\n    pass");
}

TEST(Parser, DefinitionsGetABlankLineBeforeThem) {
  EXPECT_EQ(roundtrip("x = 1\n@d\ndef f(a: int = 2, *, b) -> int:\n  '''Doc.'''\n  return a\n"),
            "x = 1\n\n@d\ndef f(a: int=2, *, b) -> int:\n    \"\"\"Doc.\"\"\"\n    return a");
}

TEST(Parser, SimpleStatements) {
  EXPECT_EQ(roundtrip("global a, b\nnonlocal c\ndel x, y[0]\nassert p, 'm'\nraise E from e\n"),
            "global a, b\nnonlocal c\ndel x, y[0]\nassert p, 'm'\nraise E from e");
  EXPECT_EQ(roundtrip("import a.b as c, d\nfrom ..m import (x as y, z)\n"),
            "import a.b as c, d\nfrom ..m import x as y, z");
  EXPECT_EQ(roundtrip("y: int = 3\n(z): int\nx += 1; y <<= 2\n"),
            "y: int = 3\n(z): int\nx += 1\ny <<= 2");
}

TEST(Parser, SyntaxErrorNamesTheLine) {
  try {
    parse_module("def f(x):\n  return x +\n");
    FAIL();
  } catch (const tfs::autograph::ConversionError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("[autograph] syntax error at line 2", 0), 0u) << e.what();
  }
}

TEST(Parser, ModuleSpansIncludeDecorators) {
  ParsedModule m = parse_module("import x\n\n@d\ndef f():\n  pass\n\n  # trailing\ny = 1\n");
  ASSERT_EQ(m.spans.size(), 3u);
  EXPECT_EQ(m.spans[1], std::make_pair(3, 5));
}

// Every node carries CPython's position: ast's (lineno, col_offset + 1), for statements and
// expressions alike (expected positions printed by CPython 3.11's ast for the same source).
TEST(Parser, NodesCarryCPythonsLineAndColumn) {
  const std::string src =
      "import tensorflow as tf\n"
      "@tf.function\n"
      "def f(x, n=3):\n"
      "    y = tf.reduce_sum(x) + n * 2\n"
      "    for i in range(n):\n"
      "        print(\"i\", i); x += 1\n"
      "    return [y, {\"k\": x}] if n else (y, -x)\n";
  std::set<std::tuple<std::string, int, int>> got;
  std::function<void(const P&)> walk = [&](const P& n) {
    if (!n) return;
    auto text = [&] {
      if (n->kind == K::FunctionDef) return std::string("FunctionDef");
      if (n->kind == K::For) return std::string("For");
      return unparse(n).substr(0, 30);
    };
    static const std::set<K> kinds = {
        K::Call,      K::Name,    K::Attribute, K::FunctionDef, K::For,   K::Assign,
        K::AugAssign, K::Return,  K::List,      K::Dict,        K::Tuple, K::IfExp,
        K::BinOp,     K::UnaryOp, K::Constant,  K::Expr,        K::Import};
    if (kinds.count(n->kind)) got.emplace(text(), n->line, n->col);
    for (const P* c : {&n->a, &n->b, &n->c}) walk(*c);
    for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
      for (auto& c : *v) walk(c);
  };
  for (auto& s : parse_module(src).body) walk(s);
  const std::set<std::tuple<std::string, int, int>> cpython = {
      {"import tensorflow as tf", 1, 1},
      {"FunctionDef", 3, 1},
      {"y = tf.reduce_sum(x) + n * 2", 4, 5},
      {"For", 5, 5},
      {"return [y, {'k': x}] if n else", 7, 5},
      {"tf.function", 2, 2},
      {"3", 3, 12},
      {"y", 4, 5},
      {"tf.reduce_sum(x) + n * 2", 4, 9},
      {"i", 5, 9},
      {"range(n)", 5, 14},
      {"print('i', i)", 6, 9},
      {"x += 1", 6, 24},
      {"[y, {'k': x}] if n else (y, -x", 7, 12},
      {"tf", 2, 2},
      {"tf.reduce_sum(x)", 4, 9},
      {"n * 2", 4, 28},
      {"range", 5, 14},
      {"n", 5, 20},
      {"x", 6, 24},
      {"1", 6, 29},
      {"n", 7, 29},
      {"[y, {'k': x}]", 7, 12},
      {"(y, -x)", 7, 36},
      {"tf.reduce_sum", 4, 9},
      {"x", 4, 23},
      {"n", 4, 28},
      {"2", 4, 32},
      {"print", 6, 9},
      {"'i'", 6, 15},
      {"i", 6, 20},
      {"y", 7, 13},
      {"{'k': x}", 7, 16},
      {"y", 7, 37},
      {"-x", 7, 40},
      {"tf", 4, 9},
      {"'k'", 7, 17},
      {"x", 7, 22},
      {"x", 7, 41},
  };
  EXPECT_EQ(got, cpython);
}

}  // namespace
