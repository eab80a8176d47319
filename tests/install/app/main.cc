// Traces a function, saves it as a SavedModel and runs the loaded signature: the core, ops,
// graph, function and savedmodel layers (and protobuf) through the installed package.
#include <cstdio>
#include <string>

#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/saved_model.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  tfs::FunctionOptions opts;
  opts.input_signature =
      std::vector<tfs::Value>{tfs::TensorSpec(tfs::PartialShape{-1}, tfs::DType::kFloat32)};
  auto twice = tfs::function(
      "twice", {"x"}, [](tfs::Tensor x) { return tfs::multiply(x, tfs::Value(2.0)); }, opts);
  tfs::saved_model::save(*twice, argv[1]);
  auto model = tfs::saved_model::load(argv[1]);
  auto out = model->signature("serving_default")
                 .call_flat({tfs::Tensor::from_vector(std::vector<float>{1, 2, 3})})[0];
  for (float v : out.to_vector<float>()) std::printf("%g ", v);
  std::printf("\n");
  return 0;
}
