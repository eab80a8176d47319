#include "tokenizer.h"

#include <gtest/gtest.h>

#include "tfscope/autograph.h"

namespace {

using namespace tfs::autograph::detail;

std::string kinds(const std::vector<Token>& toks) {
  std::string s;
  for (const auto& t : toks) {
    switch (t.type) {
      case Tok::Name:
        s += "N";
        break;
      case Tok::Number:
        s += "#";
        break;
      case Tok::String:
        s += "S";
        break;
      case Tok::Op:
        s += "o";
        break;
      case Tok::Newline:
        s += "\\";
        break;
      case Tok::Indent:
        s += ">";
        break;
      case Tok::Dedent:
        s += "<";
        break;
      case Tok::End:
        s += "$";
        break;
    }
  }
  return s;
}

TEST(Tokenizer, IndentAndDedentFollowBlocks) {
  // def f ( ) : NL > return x NL < $
  EXPECT_EQ(kinds(tokenize("def f():\n  return x\n")), "NNooo\\>NN\\<$");
}

TEST(Tokenizer, BlankAndCommentLinesDoNotChangeIndentation) {
  EXPECT_EQ(kinds(tokenize("if a:\n\n  # c\n  b\n")), "NNo\\>N\\<$");
}

TEST(Tokenizer, NewlinesInsideBracketsAreIgnored) {
  EXPECT_EQ(kinds(tokenize("f(a,\n  b)\n")), "NoNoNo\\$");
}

TEST(Tokenizer, BackslashContinuesTheLine) {
  EXPECT_EQ(kinds(tokenize("x = 1 + \\\n  2\n")), "No#o#\\$");
}

TEST(Tokenizer, StringPrefixesAndTripleQuotesAreOneToken) {
  auto toks = tokenize("rb'a' f\"{x}\" '''l1\nl2'''\n");
  ASSERT_EQ(kinds(toks), "SSS\\$");
  EXPECT_EQ(toks[0].text, "rb'a'");
  EXPECT_EQ(toks[1].text, "f\"{x}\"");
  EXPECT_EQ(toks[2].text, "'''l1\nl2'''");
}

TEST(Tokenizer, OperatorsUseLongestMatch) {
  auto toks = tokenize("a **= b // c := d -> e ...\n");
  std::vector<std::string> ops;
  for (auto& t : toks)
    if (t.type == Tok::Op) ops.push_back(t.text);
  EXPECT_EQ(ops, (std::vector<std::string>{"**=", "//", ":=", "->", "..."}));
}

TEST(Tokenizer, NumbersWithUnderscoresExponentsAndImaginary) {
  auto toks = tokenize("1_000 0x1F 1e-7 .5 3j\n");
  std::vector<std::string> nums;
  for (auto& t : toks)
    if (t.type == Tok::Number) nums.push_back(t.text);
  EXPECT_EQ(nums, (std::vector<std::string>{"1_000", "0x1F", "1e-7", ".5", "3j"}));
}

TEST(Tokenizer, UnterminatedStringReportsItsLine) {
  try {
    tokenize("x = 1\ny = 'abc\n");
    FAIL();
  } catch (const tfs::autograph::ConversionError& e) {
    EXPECT_STREQ(e.what(), "[autograph] syntax error at line 2: unterminated string literal");
  }
}

TEST(Tokenizer, InconsistentDedentIsASyntaxError) {
  EXPECT_THROW(tokenize("if a:\n    b\n  c\n"), tfs::autograph::ConversionError);
}

}  // namespace
