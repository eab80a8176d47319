// Lambda entities (tf.function(lambda x: ...)): what TF 2.21's tf.autograph.to_code prints for
// them, recorded from the oracle. TF finds the lambda by its first line and its parameters.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tfscope/autograph.h"

namespace tfs::autograph {
namespace {

constexpr const char* kSource = R"(import tensorflow as tf

f = lambda x: x if x > 0 else -x
g = lambda x, n=2: tf.reduce_sum(x) * n
a = lambda p, q: p and not q
b = tf.function(lambda x: tf.abs(x) + 1)
c = lambda *args, **kw: sorted(args, key=lambda v: -v)
)";

const std::string kOptions =
    "'lscope', ag__.ConversionOptions(recursive=True, user_requested=True, "
    "optional_features=(), internal_convert_user_code=True))\n";

std::string convert(int line, std::vector<std::string> params) {
  return convert_lambda_source(kSource, line, params, "lambdas.py", {"tf", "f", "g", "a", "b", "c"})
      .converted;
}

TEST(Lambda, ConditionalExpression) {
  EXPECT_EQ(convert(3, {"x"}),
            "tf__lam = lambda x: ag__.with_function_scope(lambda lscope: ag__.if_exp(x > 0, "
            "lambda: x, lambda: -x, 'x > 0'), " +
                kOptions);
}

TEST(Lambda, CallsUseTheLambdaScopeAndDefaultsBecomeNone) {
  EXPECT_EQ(convert(4, {"x", "n"}),
            "tf__lam = lambda x, n=None: ag__.with_function_scope(lambda lscope: "
            "ag__.converted_call(tf.reduce_sum, (x,), None, lscope) * n, " +
                kOptions);
}

TEST(Lambda, LogicalOperators) {
  EXPECT_EQ(convert(5, {"p", "q"}),
            "tf__lam = lambda p, q: ag__.with_function_scope(lambda lscope: ag__.and_(lambda: p, "
            "lambda: ag__.not_(q)), " +
                kOptions);
}

TEST(Lambda, InsideACall) {
  EXPECT_EQ(convert(6, {"x"}),
            "tf__lam = lambda x: ag__.with_function_scope(lambda lscope: "
            "ag__.converted_call(tf.abs, (x,), None, lscope) + 1, " +
                kOptions);
}

TEST(Lambda, NestedLambdaIsAnArtifact) {
  EXPECT_EQ(convert(7, {"args", "kw"}),
            "tf__lam = lambda *args, **kw: ag__.with_function_scope(lambda lscope: "
            "ag__.converted_call(sorted, (args,), dict(key=ag__.autograph_artifact(lambda v: -v)), "
            "lscope), " +
                kOptions);
}

TEST(Lambda, UnidentifiableLambdaIsRejected) {
  EXPECT_THROW(convert(3, {"y"}), ConversionError);
}

// TF 2.21's text when two lambdas on the line have the same parameters (recorded from the oracle,
// which then warns and runs the lambda unconverted).
TEST(Lambda, TwoLambdasWithOneSignatureOnALineAreAmbiguous) {
  const char* source = "fs = [lambda x: tf.zeros_like(x), lambda x: x ** 2]\n";
  try {
    convert_lambda_source(source, 1, {"x"}, "two.py", {"tf"});
    FAIL() << "no error";
  } catch (const ConversionError& e) {
    EXPECT_EQ(e.tf_type(), "UnsupportedLanguageElementError");
    EXPECT_EQ(std::string(e.what()),
              "could not parse the source code of <function <lambda> at 0x0>: found multiple "
              "definitions with identical signatures at the location. This error may be avoided "
              "by defining each lambda on a single line and with unique argument names. The "
              "matching definitions were:\nMatch 0:\nlambda x: tf.zeros_like(x)\n\nMatch 1:\n"
              "lambda x: x ** 2\n");
  }
}

}  // namespace
}  // namespace tfs::autograph
