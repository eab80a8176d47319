// lite_tool dump MODEL.tflite                 -- prints tfs::lite::dump
// lite_tool write-demo OUT                    -- writes the demo float model (demo_model.h)
// lite_tool write-models DIR                  -- converts tfscope functions into DIR:
//     mlp_float.tflite, mlp_dynamic.tflite    (x[None,64] -> Dense 32 relu -> Dense 10)
//     mlp_w1.f32 mlp_b1.f32 mlp_w2.f32 mlp_b2.f32  (its weights, raw little-endian float32)
//     ops_float.tflite, ops_dynamic.tflite    (FC, TANH, MUL, LOGISTIC, SUB, RELU6, MEAN, ADD,
//                                              CONCATENATION, TRANSPOSE, RESHAPE, BATCH_MATMUL,
//                                              SOFTMAX), ops_w.f32 ops_b.f32 (its weights)
//     {cnn,sep,fused}_{float,dynamic}.tflite (lite_cnn.h's CNN, depthwise-separable block and
//     convs without bias / pools with fused activations), <model>_<weight>.f32 (their weights)
// lite_tool convert-saved-model DIR OUT.tflite [--dynamic-range]
// lite_tool run MODEL IN.f32[,IN2.f32,...] OUT.f32 [--fast] D0 D1 ...
//     runs MODEL's inputs, each of shape [D0, D1, ...], from IN.f32, IN2.f32, ... (integer inputs,
//     token ids, as float32 values) and writes its first output to OUT.f32; prints the output
//     shape. TFSCOPE_LITE_ISA=avx512|avx2|scalar selects a lesser kernel
//     path.
// lite_tool isas                              -- prints the kernel instruction sets this CPU runs
// For conformance/formats/check_tflite.py and conformance/tflite/run.py.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>

#include "demo_model.h"
#include "lite_cnn.h"
#include "lite_mlp.h"
#include "tfscope/lite.h"
#include "tfscope/lite_format.h"
#include "tfscope/lite_kernels.h"

namespace {

using namespace tfs;
using tfs::lite::testing::lcg_floats;

void write_floats(const std::string& path, const std::vector<float>& v) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * 4));
}

std::vector<float> read_floats(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<float> v(s.size() / 4);
  std::memcpy(v.data(), s.data(), v.size() * 4);
  return v;
}

void write_both(const std::string& dir, const std::string& name, const ConcreteFunction& cf) {
  lite::ConvertOptions opts;
  lite::write_model_file(dir + "/" + name + "_float.tflite", lite::convert(cf, opts));
  opts.dynamic_range = true;
  lite::write_model_file(dir + "/" + name + "_dynamic.tflite", lite::convert(cf, opts));
}

// A convolution model's two files and its weights (DIR/<name>_<weight>.f32) for run.py.
void write_conv_model(const std::string& dir, const std::string& name,
                      const lite::testing::ConvModel& m) {
  for (const auto& w : m.weights)
    write_floats(dir + "/" + name + "_" + w.first + ".f32", m.values(w.first));
  write_both(dir, name, *m.fn->get_concrete_function());
}

int write_models(const std::string& dir) {
  // Glorot-uniform-like scales, so the MLP is well conditioned.
  std::vector<float> w1 = lcg_floats(64 * 32, 101, 0.25f), b1 = lcg_floats(32, 102, 0.1f);
  std::vector<float> w2 = lcg_floats(32 * 10, 103, 0.38f), b2 = lcg_floats(10, 104, 0.1f);
  auto mlp = lite::testing::make_mlp(64, 32, 10, w1, b1, w2, b2);
  write_both(dir, "mlp", *mlp.fn->get_concrete_function());
  write_floats(dir + "/mlp_w1.f32", w1);
  write_floats(dir + "/mlp_b1.f32", b1);
  write_floats(dir + "/mlp_w2.f32", w2);
  write_floats(dir + "/mlp_b2.f32", b2);

  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1, 64}, DType::kFloat32, "x")};
  std::vector<float> ow = lcg_floats(64 * 32, 7, 0.2f), ob = lcg_floats(32, 8, 0.2f);
  write_floats(dir + "/ops_w.f32", ow);
  write_floats(dir + "/ops_b.f32", ob);
  Variable w(Tensor::from_vector(ow, Shape{64, 32}), "w");
  Variable b(Tensor::from_vector(ob, Shape{32}), "b");
  auto fn = function(
      "ops", {"x"},
      [&](Tensor x) -> Tensor {
        Tensor h = matmul(x, w.read_value()) + Value(b.read_value());
        h = tanh(h) * 2.0 - sigmoid(h) / 3.0;
        h = relu6(h) + reduce("Mean", h, Value::list({Value(1)}), true);
        h = concat({h, transpose(h, std::vector<int64_t>{0, 1})}, 1);
        h = reshape(h, Value::list({Value(-1), Value(8), Value(8)}));
        Tensor g = matmul(h, h, false, true);
        return softmax(reshape(g, Value::list({Value(-1), Value(64)})));
      },
      opts);
  write_both(dir, "ops", *fn->get_concrete_function());
  write_conv_model(dir, "cnn", lite::testing::make_cnn());
  write_conv_model(dir, "sep", lite::testing::make_separable());
  write_conv_model(dir, "fused", lite::testing::make_fused());
  return 0;
}

int run(int argc, char** argv) {
  if (argc < 6) {
    std::cerr << "usage: lite_tool run MODEL IN.f32 OUT.f32 [--fast] D0 D1 ...\n";
    return 2;
  }
  int k = 5;
  lite::Kernels kernels = lite::Kernels::kReference;
  if (std::string(argv[k]) == "--fast") {
    kernels = lite::Kernels::kFast;
    ++k;
  }
  std::vector<int> shape;
  for (; k < argc; ++k) shape.push_back(std::stoi(argv[k]));
  std::vector<lite::Interpreter::TensorValue> inputs;
  std::string files = argv[3];
  for (size_t start = 0; start <= files.size();) {
    size_t comma = files.find(',', start);
    if (comma == std::string::npos) comma = files.size();
    inputs.push_back({shape, read_floats(files.substr(start, comma - start))});
    start = comma + 1;
  }
  lite::Interpreter interp(lite::ModelFile::read(argv[2]), kernels);
  auto out = interp.run(inputs);
  if (const char* dir = std::getenv("TFSCOPE_LITE_DUMP")) {  // every operator's output, by index
    for (int i = 0; i < interp.num_operators(); ++i) {
      const auto* v = interp.intermediate(interp.operator_output(i));
      if (v) write_floats(std::string(dir) + "/op" + std::to_string(i) + ".f32", v->data);
    }
  }
  write_floats(argv[4], out.at(0).data);
  for (size_t i = 0; i < out[0].shape.size(); ++i) std::cout << (i ? " " : "") << out[0].shape[i];
  std::cout << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "isas") {
    for (auto isa : {tfs::lite::kernels::Isa::kScalar, tfs::lite::kernels::Isa::kAvx2,
                     tfs::lite::kernels::Isa::kAvx512, tfs::lite::kernels::Isa::kAmx}) {
      if (tfs::lite::kernels::isa_supported(isa))
        std::cout << tfs::lite::kernels::isa_name(isa) << "\n";
    }
    return 0;
  }
  if (argc < 3) {
    std::cerr << "usage: lite_tool dump MODEL.tflite | write-demo OUT.tflite | write-models DIR |"
                 " run MODEL IN.f32 OUT.f32 [--fast] D0 D1 ...\n";
    return 2;
  }
  try {
    const std::string mode = argv[1];
    if (mode == "dump") {
      std::cout << tfs::lite::dump(tfs::lite::ModelFile::read(argv[2]));
      return 0;
    }
    if (mode == "write-demo") {
      tfs::lite::write_model_file(argv[2], tfs::lite::testing::demo_model());
      return 0;
    }
    if (mode == "write-models") return write_models(argv[2]);
    if (mode == "run") return run(argc, argv);
    if (mode == "convert-saved-model" && argc >= 4) {
      tfs::lite::ConvertOptions opts;
      opts.dynamic_range = argc > 4 && std::string(argv[4]) == "--dynamic-range";
      tfs::lite::write_model_file(argv[3], tfs::lite::convert_saved_model(argv[2], opts));
      return 0;
    }
    std::cerr << "lite_tool: unknown mode " << mode << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
