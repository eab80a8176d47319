// unified_diff produces Python's difflib.unified_diff text (expectations generated with
// CPython 3.11's difflib).
#include <gtest/gtest.h>

#include "tfscope/autograph.h"

namespace {

using tfs::autograph::unified_diff;

TEST(UnifiedDiff, EqualTextsGiveNoDiff) {
  EXPECT_EQ(unified_diff("a\n", "a\n", "x", "y"), "");
}

TEST(UnifiedDiff, ChangedFirstLineKeepsThreeLinesOfContext) {
  EXPECT_EQ(unified_diff("def f(x):\n  if x > 0:\n    y = x\n  return y\n",
                         "def tf__f(x):\n  if x > 0:\n    y = x\n  return y\n", "a", "b"),
            "--- a\n+++ b\n@@ -1,4 +1,4 @@\n-def f(x):\n+def tf__f(x):\n   if x > 0:\n"
            "     y = x\n   return y\n");
}

TEST(UnifiedDiff, DistantChangesGetSeparateHunks) {
  std::string a, b;
  for (int i = 0; i < 20; ++i) {
    a += "l" + std::to_string(i) + "\n";
    b += (i == 3 || i == 15 ? "L" : "l") + std::to_string(i) + "\n";
  }
  EXPECT_EQ(unified_diff(a, b, "a", "b"),
            "--- a\n+++ b\n@@ -1,7 +1,7 @@\n l0\n l1\n l2\n-l3\n+L3\n l4\n l5\n l6\n"
            "@@ -13,7 +13,7 @@\n l12\n l13\n l14\n-l15\n+L15\n l16\n l17\n l18\n");
}

TEST(UnifiedDiff, AppendedLine) {
  EXPECT_EQ(unified_diff("x\ny\n", "x\ny\nz\n", "a", "b"),
            "--- a\n+++ b\n@@ -1,2 +1,3 @@\n x\n y\n+z\n");
}

TEST(ConvertSource, DiffLabelsNameFileAndFunction) {
  auto r = tfs::autograph::convert_source("def f(x):\n  return x\n", "f", "m.py");
  EXPECT_EQ(r.diff.substr(0, r.diff.find("@@")), "--- m.py:f (original)\n+++ m.py:f (converted)\n");
}

}  // namespace
