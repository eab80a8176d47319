// Front ends of convolution and pooling (ops_conv.h), each building the nodes TF 2.21's Python
// function builds, under the same names.
#include "tfscope/ops_conv.h"

#include "op_scope.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using detail::OpScope;

bool is_tensorish(const Value& v) {
  return v.kind() == Value::Kind::kTensor || v.kind() == Value::Kind::kVariable;
}

// TF's Conv2D wrapper reads a variable operand inside its scope: "Conv2D/ReadVariableOp".
using detail::convert_input;

// op_def_library's check of a string attr against the op's allowed values.
void check_padding(const std::string& op, const std::string& padding, bool explicit_allowed) {
  if (padding == "SAME" || padding == "VALID" || (explicit_allowed && padding == "EXPLICIT")) {
    return;
  }
  const std::string allowed =
      explicit_allowed ? "\"SAME\", \"VALID\", \"EXPLICIT\"" : "\"SAME\", \"VALID\"";
  if (executing_eagerly()) {
    throw Error(ErrorKind::kInvalidArgument,
                "Value for attr 'padding' of \"" + padding +
                    "\" is not in the list of allowed values: " + allowed);
  }
  throw Error(ErrorKind::kValueError, "Attr 'padding' of '" + op + "' Op passed string '" +
                                          padding + "' not in: " + allowed + ".");
}

// op_def_library's check of the first T operand against the op's allowed types while building a
// graph, with TF's list (which names types tfscope lacks); eagerly the kernel lookup fails.
void check_type(const std::string& param, const Tensor& t, std::initializer_list<DType> allowed,
                const std::string& tf_list) {
  if (executing_eagerly()) return;
  for (DType d : allowed) {
    if (t.dtype() == d) return;
  }
  throw Error(ErrorKind::kTypeError, "Value passed to parameter '" + param + "' has DataType " +
                                         std::string(dtype_name(t.dtype())) +
                                         " not in list of allowed values: " + tf_list);
}

const char* const kConvTypesText = "float16, bfloat16, float32, float64, int32";
const char* const kFloatTypesText = "float16, bfloat16, float32, float64";

AttrMap conv_attrs(const ConvAttrs& a, bool cudnn) {
  AttrMap m{{"strides", a.strides},
            {"padding", a.padding},
            {"explicit_paddings", a.explicit_paddings},
            {"data_format", std::string("NHWC")},
            {"dilations", a.dilations}};
  if (cudnn) m["use_cudnn_on_gpu"] = true;
  return m;
}

Tensor conv2d_node(const Tensor& x, const Tensor& f, const ConvAttrs& a, const std::string& name) {
  check_type("input", x, {DType::kFloat32, DType::kFloat64, DType::kInt32}, kConvTypesText);
  check_padding("Conv2D", a.padding, true);
  return execute1("Conv2D", {x, f}, conv_attrs(a, true), name);
}

}  // namespace

Tensor conv2d(const Value& input, const Value& filters, const ConvAttrs& a,
              const std::string& name) {
  const std::string op = name.empty() ? "Conv2D" : name;
  Tensor x = convert_input(op, input, DType::kInvalid, "input");
  Tensor f =
      convert_input(op, filters, is_tensorish(filters) ? DType::kInvalid : x.dtype(), "filter");
  return conv2d_node(x, f, a, op);
}

Tensor conv1d(const Value& input, const Value& filters, const ConvAttrs& a) {
  OpScope s("conv1d");
  Tensor x = expand_dims(convert_to_tensor(input), -3);
  Tensor f = expand_dims(convert_to_tensor(filters), 0);
  return squeeze(conv2d_node(x, f, a, s.op_name()), {-3});
}

Tensor depthwise_conv2d(const Value& input, const Value& filter, const ConvAttrs& a) {
  if (a.dilations[1] != 1 || a.dilations[2] != 1) {
    throw Error(ErrorKind::kUnimplemented,
                "[ops] tf.nn.depthwise_conv2d with dilations: TF builds SpaceToBatchND around "
                "the op, which tfscope does not have");
  }
  OpScope s("depthwise");
  Tensor x = convert_to_tensor(input, DType::kInvalid, "tensor_in");
  Tensor f = convert_to_tensor(filter, DType::kInvalid, "filter_in");
  (void)shape(f);  // with_space_to_batch's filter_shape
  (void)convert_to_tensor(Value::list({Value(a.dilations[1]), Value(a.dilations[2])}),
                          DType::kInt32, "dilation_rate");
  check_type("input", x, {DType::kFloat32, DType::kFloat64}, kFloatTypesText);
  check_padding("DepthwiseConv2dNative", a.padding, true);
  return execute1("DepthwiseConv2dNative", {x, f}, conv_attrs(a, false), s.op_name());
}

Tensor conv2d_transpose(const Value& input, const Value& filters, const Value& output_shape,
                        const ConvAttrs& a) {
  OpScope s("conv2d_transpose");
  const std::string op = s.op_name();
  // The op is created with the scope as its name: host operands are converted in the scope.
  Tensor sizes = convert_to_tensor(output_shape, DType::kInt32, "input_sizes");
  Tensor f = convert_to_tensor(filters, DType::kInvalid, "filter");
  Tensor x =
      convert_to_tensor(input, is_tensorish(input) ? DType::kInvalid : f.dtype(), "out_backprop");
  check_type("filter", f, {DType::kFloat32, DType::kFloat64, DType::kInt32}, kConvTypesText);
  check_padding("Conv2DBackpropInput", a.padding, true);
  return execute1("Conv2DBackpropInput", {sizes, f, x}, conv_attrs(a, true), op);
}

Tensor max_pool2d(const Value& input, const std::vector<int64_t>& ksize,
                  const std::vector<int64_t>& strides, const std::string& padding,
                  const std::vector<int64_t>& explicit_paddings, const std::string& name) {
  OpScope s(name.empty() ? "MaxPool2d" : name);
  Tensor x = convert_to_tensor(input, DType::kInvalid, "input");
  check_type("input", x,
             {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64, DType::kUInt8,
              DType::kInt16, DType::kInt8},
             "float16, bfloat16, float32, float64, int32, int64, uint8, int16, int8, uint16, "
             "qint8");
  check_padding("MaxPool", padding, true);
  return execute1("MaxPool", {x},
                  {{"ksize", ksize},
                   {"strides", strides},
                   {"padding", padding},
                   {"explicit_paddings", explicit_paddings},
                   {"data_format", std::string("NHWC")}},
                  s.op_name());
}

Tensor avg_pool2d(const Value& input, const std::vector<int64_t>& ksize,
                  const std::vector<int64_t>& strides, const std::string& padding,
                  const std::string& name) {
  OpScope s(name.empty() ? "AvgPool2D" : name);
  Tensor x = convert_to_tensor(input, DType::kInvalid, "value");
  check_type("value", x, {DType::kFloat32, DType::kFloat64}, kFloatTypesText);
  check_padding("AvgPool", padding, false);
  return execute1("AvgPool", {x},
                  {{"ksize", ksize},
                   {"strides", strides},
                   {"padding", padding},
                   {"data_format", std::string("NHWC")}},
                  s.op_name());
}

}  // namespace tfs
