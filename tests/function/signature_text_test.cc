// TF 2.21's signature texts (signature_text.h): every expected string is what TF 2.21 printed for
// the same function, recorded by conformance/cases/sm_restored_signatures.py
// (conformance/expected_tf.json).
#include "tfscope/signature_text.h"

#include <gtest/gtest.h>

#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/variable.h"

namespace tfs {
namespace {

TensorSpec spec(std::vector<int64_t> dims, std::string name) {
  return TensorSpec(PartialShape(std::move(dims)), DType::kFloat32, std::move(name));
}

TEST(SignatureTextTest, TracedNamedtupleOutputPrintsItsFields) {
  // "traced namedtuple output": n returns P(x + 1.0, x * 2.0).
  auto n = function("sigtext_namedtuple", {"x"}, [](Tensor x) {
    return Value::named_tuple("P", {"u", "w"}, {add(x, Value(1.0)), multiply(x, Value(2.0))});
  });
  auto cf = n->get_concrete_function({Value(ones({3}))});
  EXPECT_EQ(cf->pretty_printed_signature(false),
            "(x: TensorSpec(shape=(3,), dtype=tf.float32, name=None)) -> "
            "P[['u', TensorSpec(shape=(3,), dtype=tf.float32, name=None)], "
            "['w', TensorSpec(shape=(3,), dtype=tf.float32, name=None)]]");
}

TEST(SignatureTextTest, TracesCapturingOneVariableShowOneCaptureId) {
  // TF 2.21: f(x) = x * v traced for () and (2,) prints the same
  // "<id>: TensorSpec(shape=(), dtype=tf.float32...)" capture line in both traces.
  Variable v(Value(ones({})));
  auto f = function("sigtext_one_variable", {"x"},
                    [&v](Tensor x) { return multiply(x, Value(v.read_value())); });
  auto a = f->get_concrete_function({Value(ones({}))});
  auto b = f->get_concrete_function({Value(ones({2}))});
  auto capture_line = [](const ConcreteFunction& cf) {
    const std::string s = cf.pretty_printed_signature(true);
    return s.substr(s.find("Captures:\n"));
  };
  EXPECT_NE(capture_line(*a).find(": TensorSpec(shape=(), dtype=tf.resource, name=None)"),
            std::string::npos);
  EXPECT_EQ(capture_line(*a), capture_line(*b));
}

TEST(SignatureTextTest, RestoredTraceHasNamedSpecsAndNoCaptures) {
  // "restored f": the first saved trace of f(x, y=1.0) -> {'b': [x * v, x + y]}.
  TraceTypeBuilder types;
  std::vector<TypedParameter> params = {
      {"x", ParamKind::kPositionalOrKeyword, types.from_value(Value(spec({}, "x")))},
      {"y", ParamKind::kPositionalOrKeyword, types.from_value(Value(1.0))}};
  Value out =
      Value::dict({{Value("b"), Value::list({Value(spec({}, "b_0")), Value(spec({}, "b_1"))})}});
  EXPECT_EQ(signature_text(params, out, {}, true),
            "Input Parameters:\n"
            "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.float32, name='x')\n"
            "  y (POSITIONAL_OR_KEYWORD): Literal[1.0]\n"
            "Output Type:\n"
            "  Dict[['b', List[TensorSpec(shape=(), dtype=tf.float32, name='b_0'), "
            "TensorSpec(shape=(), dtype=tf.float32, name='b_1')]]]\n"
            "Captures:\n"
            "  None");
}

TEST(SignatureTextTest, ShortFormMarksKeywordOnlyAndPositionalOnly) {
  // "restored k" and "restored a": k(x, *, scale=2.0) and a(x, *rest) called with (x, t, 5).
  TraceTypeBuilder types;
  std::vector<TypedParameter> k = {
      {"x", ParamKind::kPositionalOrKeyword, types.from_value(Value(spec({}, "x")))},
      {"scale", ParamKind::kKeywordOnly, types.from_value(Value(2.0))}};
  EXPECT_EQ(parameters_text(k),
            "(x: TensorSpec(shape=(), dtype=tf.float32, name='x'), *, scale: Literal[2.0])");
  std::vector<TypedParameter> a = {
      {"x", ParamKind::kPositionalOnly, types.from_value(Value(spec({}, "x")))},
      {"rest_1", ParamKind::kPositionalOnly, types.from_value(Value(5))}};
  EXPECT_EQ(signature_text(a, Value(spec({}, "unknown")), {}, false),
            "(x: TensorSpec(shape=(), dtype=tf.float32, name='x'), rest_1: Literal[5], /) -> "
            "TensorSpec(shape=(), dtype=tf.float32, name='unknown')");
}

TEST(SignatureTextTest, SpecNamesAreSanitizedNestPaths) {
  // The saved output specs of g, h and d (and a lone tensor's).
  EXPECT_EQ(sanitize_spec_name(""), "unknown");
  EXPECT_EQ(sanitize_spec_name("b_0"), "b_0");
  EXPECT_EQ(sanitize_spec_name("1_0"), "tensor_1_0");
  EXPECT_EQ(sanitize_spec_name("1_a_1_c"), "tensor_1_a_1_c");
  EXPECT_EQ(sanitize_spec_name("Out-Key"), "out_key");
}

}  // namespace
}  // namespace tfs
