// Activity, reaching definitions and liveness on small functions, with the sets worked out by
// hand from TF's rules (see /work/shared/reference/autograph.md §3).
#include "analysis.h"

#include <gtest/gtest.h>

#include "parser.h"
#include "passes.h"
#include "tfscope/autograph.h"

namespace {

using namespace tfs::autograph::detail;

P function(const std::string& src) {
  return parse_module(src).body.at(0);
}

TEST(Activity, StoresModifyAndBindReadsRead) {
  QnTable qns;
  Activity a = block_activity(parse_module("y = x + 1\nz += y\n").body, qns);
  EXPECT_EQ(a.read, (Names{"x", "y", "z"}));  // AugAssign reads its target
  EXPECT_EQ(a.modified, (Names{"y", "z"}));
  EXPECT_EQ(a.bound, (Names{"y", "z"}));
}

TEST(Activity, AttributeStoreReadsTheBaseAndModifiesTheComposite) {
  QnTable qns;
  Activity a = block_activity(parse_module("self.x = self.x + i\n").body, qns);
  EXPECT_EQ(a.read, (Names{"i", "self", "self.x"}));
  EXPECT_EQ(a.modified, (Names{"self.x"}));
  EXPECT_FALSE(qns.info("self.x").simple);
  EXPECT_EQ(qns.info("self.x").support, (Names{"self"}));
}

TEST(Activity, SubscriptQualifiedNamesQuoteStringKeys) {
  QnTable qns;
  Activity a = block_activity(parse_module("d['k'] = d[i]\n").body, qns);
  EXPECT_EQ(a.modified, (Names{"d['k']"}));
  EXPECT_TRUE(a.read.count("d[i]"));
  EXPECT_EQ(qns.info("d[i]").support, (Names{"d", "i"}));
}

TEST(Activity, ComprehensionTargetsStayLocal) {
  QnTable qns;
  Activity a = block_activity(parse_module("a = [v * 2 for v in xs]\n").body, qns);
  EXPECT_EQ(a.read, (Names{"xs"}));
  EXPECT_EQ(a.modified, (Names{"a"}));
}

TEST(Activity, NestedFunctionContributesOnlyFreeNames) {
  QnTable qns;
  Activity a = block_activity(parse_module("def g(y):\n  t = y + z\n  return t\n").body, qns);
  EXPECT_EQ(a.read, (Names{"z"}));
  EXPECT_EQ(a.modified, (Names{"g"}));
}

TEST(Activity, DelReadsBindsAndDeletes) {
  QnTable qns;
  Activity a = block_activity(parse_module("del y\n").body, qns);
  EXPECT_EQ(a.deleted, (Names{"y"}));
  EXPECT_EQ(a.read, (Names{"y"}));
}

TEST(Liveness, IfOutputsAreLiveAfterAndInputsLiveBefore) {
  QnTable qns;
  P fn = function("def f(x, n):\n  y = 0\n  if n > 0:\n    y = x + 1\n    x = y * 2\n  return y\n");
  auto flow = analyze_control_flow(fn, qns);
  const FlowInfo& info = flow.at(fn->v1[1].get());
  EXPECT_EQ(info.live_in, (Names{"n", "x", "y"}));
  EXPECT_EQ(info.live_out, (Names{"y"}));
  EXPECT_EQ(info.defined_in, (Names{"n", "x", "y"}));
  EXPECT_EQ(info.body.bound, (Names{"x", "y"}));
}

TEST(Liveness, LoopHeadSeesReadsOfTheNextIteration) {
  QnTable qns;
  P fn = function(
      "def f(n):\n  s = 0\n  for i in range(n):\n    if i > 0:\n      s = s + i\n  return 0\n");
  auto flow = analyze_control_flow(fn, qns);
  const P& loop = fn->v1[1];
  const P& inner_if = loop->v1[0];
  // s is read by the next iteration, so it is live after the inner if...
  EXPECT_TRUE(flow.at(inner_if.get()).live_out.count("s"));
  // ...but nothing reads it after the loop.
  EXPECT_EQ(flow.at(loop.get()).live_out, Names{});
  EXPECT_EQ(flow.at(loop.get()).iterate.bound, (Names{"i"}));
}

TEST(ReachingDefinitions, DefinitionsFromTheBackEdgeReachStatementsInTheLoop) {
  QnTable qns;
  P fn =
      function("def f(n):\n  while n > 0:\n    if n > 1:\n      pass\n    t = n\n    n = n - 1\n");
  auto flow = analyze_control_flow(fn, qns);
  EXPECT_EQ(flow.at(fn->v1[0].get()).defined_in, (Names{"n"}));
  EXPECT_EQ(flow.at(fn->v1[0]->v1[0].get()).defined_in, (Names{"n", "t"}));
}

TEST(ReachingDefinitions, DelRemovesADefinition) {
  QnTable qns;
  P fn = function("def f(x):\n  y = x\n  del y\n  if x:\n    y = 1\n");
  auto flow = analyze_control_flow(fn, qns);
  EXPECT_EQ(flow.at(fn->v1[2].get()).defined_in, (Names{"x"}));
}

TEST(Namer, AddsCountersAndSkipsReservedAndGlobalNames) {
  Namer namer(Names{"get_state"});
  EXPECT_EQ(namer.new_symbol("get_state", {}), "get_state_1");
  EXPECT_EQ(namer.new_symbol("get_state", {"get_state_2"}), "get_state_3");
  EXPECT_EQ(namer.new_symbol("retval_", {}), "retval_");
  EXPECT_EQ(namer.new_symbol("retval_", {}), "retval__1");
  // A trailing _<digits> is read as the counter: TF's namer turns 'break_1' into 'break'.
  EXPECT_EQ(namer.new_symbol("break_1", {}), "break");
}

TEST(Convert, CountsConvertedStatements) {
  auto r = tfs::autograph::convert_source(
      "def f(n):\n  s = 0\n  for i in range(n):\n    if i > 2:\n      s += i\n  while s > 9:\n"
      "    s -= 1\n  return s\n",
      "f");
  EXPECT_EQ(r.if_stmts, 1);
  EXPECT_EQ(r.for_stmts, 1);
  EXPECT_EQ(r.while_stmts, 1);
  EXPECT_EQ(r.original.substr(0, 9), "def f(n):");
  EXPECT_EQ(r.converted.substr(0, 13), "def tf__f(n):");
  EXPECT_EQ(r.converted.back(), '\n');
  EXPECT_GT(r.converted_lines(), 30);
}

TEST(Convert, MissingFunctionIsABadInputError) {
  try {
    tfs::autograph::convert_source("def f():\n  pass\n", "g", "m.py");
    FAIL();
  } catch (const tfs::autograph::ConversionError& e) {
    EXPECT_STREQ(e.what(), "[autograph] no function named 'g' in m.py");
    EXPECT_EQ(e.tf_type(), "");
  }
}

TEST(Convert, RejectedConstructsUseTfMessages) {
  try {
    tfs::autograph::convert_source("def f(n):\n  while n:\n    n -= 1\n  else:\n    pass\n", "f");
    FAIL();
  } catch (const tfs::autograph::ConversionError& e) {
    EXPECT_STREQ(e.what(), "while/else statement not yet supported");
    EXPECT_EQ(e.tf_type(), "UnsupportedLanguageElementError");
  }
}

TEST(Convert, NestedFunctionSourceIsIndentedUnderTheScope) {
  auto r = tfs::autograph::convert_source("def f(x):\n  return x\n", "f");
  EXPECT_EQ(r.converted,
            "def tf__f(x):\n"
            "    with ag__.FunctionScope('f', 'fscope', ag__.ConversionOptions(recursive=True, "
            "user_requested=True, optional_features=(), internal_convert_user_code=True)) as "
            "fscope:\n"
            "        do_return = False\n"
            "        retval_ = ag__.UndefinedReturnValue()\n"
            "        try:\n"
            "            do_return = True\n"
            "            retval_ = ag__.ld(x)\n"
            "        except:\n"
            "            do_return = False\n"
            "            raise\n"
            "        return fscope.ret(retval_, do_return)\n");
}

}  // namespace
