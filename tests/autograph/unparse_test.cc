#include "unparse.h"

#include <gtest/gtest.h>

namespace {

using namespace tfs::autograph::detail;

TEST(PythonStrRepr, PrefersSingleQuotes) {
  EXPECT_EQ(python_str_repr("y"), "'y'");
}

TEST(PythonStrRepr, UsesDoubleQuotesWhenOnlySingleQuotesInside) {
  EXPECT_EQ(python_str_repr("d['k']"), "\"d['k']\"");
}

TEST(PythonStrRepr, EscapesBothQuotesWhenBothInside) {
  EXPECT_EQ(python_str_repr("'\""), "'\\'\"'");
}

TEST(PythonStrRepr, KeepsPrintableUnicodeAndEscapesControls) {
  EXPECT_EQ(python_str_repr("caf\xc3\xa9\n\x01"), "'caf\xc3\xa9\\n\\x01'");
}

TEST(Unparse, OneElementTupleHasTrailingComma) {
  EXPECT_EQ(unparse(tuple({name("y")})), "(y,)");
  EXPECT_EQ(unparse(assign(tuple({name("y")}), name("vars_"))), "y, = vars_");
}

TEST(Unparse, EmptyFunctionBodyFromTemplates) {
  EXPECT_EQ(unparse(funcdef("set_state", {"block_vars"}, {pass_stmt()})),
            "def set_state(block_vars):\n    pass");
}

TEST(Unparse, DottedBuildsAttributeChains) {
  EXPECT_EQ(unparse(dotted("ag__.ld")), "ag__.ld");
}

}  // namespace
