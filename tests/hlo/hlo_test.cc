// HLO text of traced functions against TF 2.21's, recorded by tests/hlo/record_tf.py (the text
// depends on TF's version, not on the CPU), compared in hlo::normalize's form.
#include "tfscope/hlo.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tfscope/control_flow.h"
#include "tfscope/errors.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

std::string recorded(const std::string& name) {
  std::ifstream in(std::string(TFSCOPE_HLO_RECORDED_DIR) + "/" + name + ".hlo");
  EXPECT_TRUE(in.good()) << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Tensor ones(std::vector<int64_t> dims) {
  Shape s(dims);
  return Tensor::from_vector(std::vector<float>(static_cast<size_t>(s.num_elements()), 1.0f), s);
}

const GraphFunction& traced(const std::shared_ptr<Function>& f, std::vector<Value> args) {
  static std::vector<std::shared_ptr<ConcreteFunction>> keep;
  keep.push_back(f->get_concrete_function(args));
  return keep.back()->graph_function();
}

TEST(Hlo, DenseLayerIsDotTransposeBroadcastAddMaximum) {
  auto f = function("dense", {"x", "w"},
                    [](Tensor x, Tensor w) { return relu(add(matmul(x, w), 1.0)); });
  EXPECT_EQ(hlo::normalize(hlo::compiler_ir(traced(f, {ones({2, 3}), ones({3, 4})}), "hlo")),
            hlo::normalize(recorded("dense")));
}

TEST(Hlo, ReductionsHaveReducerComputationsAndMeanDividesByTheCount) {
  auto f = function("means", {"x"}, [](Tensor x) {
    return Value::tuple({reduce_mean(x, std::vector<int64_t>{0}, true), reduce_max(x)});
  });
  EXPECT_EQ(hlo::normalize(hlo::compiler_ir(traced(f, {ones({2, 3})}), "hlo")),
            hlo::normalize(recorded("means")));
}

TEST(Hlo, TransposeKeepsThePermutedLayoutAndConstantsMaterializeAtTheirUser) {
  auto f = function("shapes", {"x"}, [](Tensor x) {
    Tensor c = constant(Tensor::from_vector<float>({1, 2, 3}));
    return subtract(transpose(reshape(x, Value::list({int64_t{3}, int64_t{2}}))), c);
  });
  EXPECT_EQ(hlo::normalize(hlo::compiler_ir(traced(f, {ones({2, 3})}), "hlo")),
            hlo::normalize(recorded("shapes")));
}

TEST(Hlo, SoftmaxAsTheMlirBridgeLegalizesIt) {
  auto f = function("softmax", {"x"}, [](Tensor x) { return softmax(x); });
  EXPECT_EQ(hlo::normalize(hlo::compiler_ir(traced(f, {ones({2, 3})}), "hlo")),
            hlo::normalize(recorded("softmax")));
}

TEST(Hlo, GatherSliceAndArgMaxAsTf2xlaLowersThem) {
  auto f = function("gather_slice", {"x"}, [](Tensor x) {
    Tensor g = gather(x, Value::list({int64_t{2}, int64_t{0}}));
    return Value::tuple({slice(g, {0, 1}, {2, 2}), argmax(x, 1)});
  });
  EXPECT_EQ(hlo::normalize(hlo::compiler_ir(traced(f, {ones({3, 4})}), "hlo")),
            hlo::normalize(recorded("gather_slice")));
}

TEST(Hlo, GeluExpandsErfcAsXlaMathDoes) {
  auto f = function("gelu", {"x"}, [](Tensor x) { return gelu(x); });
  EXPECT_EQ(hlo::normalize(hlo::compiler_ir(traced(f, {ones({2, 3})}), "hlo")),
            hlo::normalize(recorded("gelu")));
}

TEST(Hlo, CondIsAConditionalOverTwoBranchComputations) {
  auto f = function("cond", {"x"}, [](Tensor x) {
    return cond(
        greater(reduce_sum(x), 0.0), [&] { return std::vector<Tensor>{multiply(x, 2.0)}; },
        [&] { return std::vector<Tensor>{subtract(x, 1.0)}; })[0];
  });
  EXPECT_EQ(hlo::normalize(hlo::compiler_ir(traced(f, {ones({2, 3})}), "hlo")),
            hlo::normalize(recorded("cond")));
}

TEST(Hlo, WhileLoopIsAWhileOverTheLoopStateWithConstsPropagated) {
  auto f = function("while_loop", {"x"}, [](Tensor x) {
    auto out = while_loop([](const std::vector<Tensor>& v) { return less(v[0], 3); },
                          [](const std::vector<Tensor>& v) {
                            return std::vector<Tensor>{add(v[0], 1), multiply(v[1], 2.0)};
                          },
                          {constant(Tensor::scalar<int32_t>(0)), x});
    return Value::tuple({out[0], out[1]});
  });
  EXPECT_EQ(hlo::normalize(hlo::compiler_ir(traced(f, {ones({2, 3})}), "hlo")),
            hlo::normalize(recorded("while_loop")));
}

TEST(Hlo, NoMetadataStageDropsEveryMetadataField) {
  auto f = function("dense", {"x", "w"},
                    [](Tensor x, Tensor w) { return relu(add(matmul(x, w), 1.0)); });
  std::string text = hlo::compiler_ir(traced(f, {ones({2, 3}), ones({3, 4})}), "hlo_no_metadata");
  EXPECT_EQ(text.find("metadata="), std::string::npos);
  EXPECT_NE(text.find("dot("), std::string::npos);
}

TEST(Hlo, NormalizeRenumbersPerBaseNameInOrderOfAppearance) {
  EXPECT_EQ(hlo::normalize("HloModule a_inference_f_15__.3\n%add.7 = add(%x.0, %x.1) "
                           "to_apply=%Sum-reduction.2 %add.3 %add.7\n"),
            "HloModule a_inference_f_N__\n%add.1 = add(%x.1, %x.2) to_apply=%Sum-reduction.1 "
            "%add.2 %add.1\n");
  // Every computation made from a function loses its uid; a rewritten copy keeps `_const_K`.
  EXPECT_EQ(hlo::normalize("true_computation=%cond_true_10__.2 body=%while_body_36_const_0__.5 "
                           "%cond_wrapper.4 %Sum.3"),
            "true_computation=%cond_true_N__ body=%while_body_N_const_0__ %cond_wrapper.1 %Sum.1");
  EXPECT_EQ(
      hlo::normalize(
          R"(metadata={op_type="Sub" op_name="sub" source_file="/a/ops.py" source_line=1221})"),
      R"(metadata={op_type="Sub" op_name="sub"})");
}

TEST(Hlo, UnknownStageIsTfsValueError) {
  auto f = function("ident", {"x"}, [](Tensor x) { return identity(x); });
  try {
    hlo::compiler_ir(traced(f, {ones({2})}), "nonsense");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kValueError);
    EXPECT_STREQ(e.what(),
                 "Invalid stage selected: 'nonsense'. Valid values are: 'hlo', "
                 "'hlo_serialized', 'optimized_hlo', 'optimized_hlo_serialized', "
                 "'optimized_hlo_dot'");
  }
}

TEST(Hlo, StagesTfscopeDoesNotProduceAreInvalidStages) {
  // TF's error class and text form for a stage it rejects, listing the stages tfscope accepts.
  auto f = function("ident", {"x"}, [](Tensor x) { return identity(x); });
  const GraphFunction& g = traced(f, {ones({2})});
  for (std::string stage :
       {"optimized_hlo", "optimized_hlo_dot", "optimized_hlo_serialized", "hlo_serialized"}) {
    try {
      hlo::compiler_ir(g, stage);
      FAIL() << stage;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kValueError) << stage;
      EXPECT_EQ(std::string(e.what()), "Invalid stage selected: '" + stage +
                                           "'. Valid values are: 'hlo', 'hlo_no_metadata'");
    }
  }
}

TEST(Hlo, PrintIsTfsUnsupportedOperationError) {
  auto f = function("printing", {"x"}, [](Tensor x) {
    print(x);
    return add(x, 1.0);
  });
  const GraphFunction& g = traced(f, {ones({2})});
  try {
    hlo::compiler_ir(g, "hlo");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kValueError);
    EXPECT_EQ(std::string(e.what()).substr(0, 24), "Failed getting HLO text:");
    EXPECT_NE(std::string(e.what()).find("compile graph " + g.name + "[] on XLA_CPU_JIT: "),
              std::string::npos);
  }
}

}  // namespace
}  // namespace tfs
