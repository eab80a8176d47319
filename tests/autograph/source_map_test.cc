// The source map: each converted line knows the user's line it came from, so that errors raised
// in converted code are reported where TF reports them ("in user code: File ..., line N").
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tfscope/autograph.h"

namespace tfs::autograph {
namespace {

constexpr const char* kSource = R"(import tensorflow as tf


def f(x):
  if x > 0:
    y = x
  else:
    y = -x
  return y
)";

// The source line of the first converted line that contains `text`.
int origin_of(const ConversionResult& r, const std::string& text) {
  std::stringstream ss(r.converted);
  std::string line;
  for (size_t i = 0; std::getline(ss, line); ++i)
    if (line.find(text) != std::string::npos) return r.line_origins.at(i);
  ADD_FAILURE() << "no converted line contains " << text;
  return -1;
}

TEST(SourceMap, OneOriginPerConvertedLine) {
  ConversionResult r = convert_source(kSource, "f");
  size_t lines = 0;
  for (char c : r.converted) lines += c == '\n';
  EXPECT_EQ(r.line_origins.size(), lines);
}

TEST(SourceMap, GeneratedStatementsMapToTheStatementTheyReplace) {
  ConversionResult r = convert_source(kSource, "f");
  EXPECT_EQ(origin_of(r, "def tf__f(x):"), 4);
  EXPECT_EQ(origin_of(r, "ag__.if_stmt("), 5);
  EXPECT_EQ(origin_of(r, "y = ag__.ld(x)"), 6);
  EXPECT_EQ(origin_of(r, "y = -ag__.ld(x)"), 8);
  EXPECT_EQ(origin_of(r, "retval_ = ag__.ld(y)"), 9);
}

}  // namespace
}  // namespace tfs::autograph
