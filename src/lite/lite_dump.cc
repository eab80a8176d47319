// The text report behind tfs::lite::dump.
#include <cstdio>
#include <sstream>

#include "tfscope/lite_format.h"

namespace tfs::lite {
namespace {

constexpr size_t kMaxListed = 8;  // values printed per quantization vector before "..."

std::string fmt_float(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

template <typename T, typename F>
std::string list(const flatbuffers::Vector<T>* v, F&& fmt, size_t max = SIZE_MAX) {
  std::string out = "[";
  if (v) {
    for (size_t i = 0; i < v->size(); ++i) {
      if (i == max) {
        out += ", ... (" + std::to_string(v->size()) + " values)";
        break;
      }
      out += (i ? ", " : "") + fmt(v->Get(i));
    }
  }
  return out + "]";
}

std::string ints(const flatbuffers::Vector<int32_t>* v) {
  return list(v, [](int32_t x) { return std::to_string(x); });
}

std::string act(tflite::ActivationFunctionType a) {
  const char* n = tflite::EnumNameActivationFunctionType(a);
  return *n ? n : "UNKNOWN(" + std::to_string(a) + ")";
}

std::string padding(tflite::Padding p) {
  const char* n = tflite::EnumNamePadding(p);
  return *n ? n : "UNKNOWN(" + std::to_string(p) + ")";
}

std::string b(bool v) {
  return v ? "true" : "false";
}

std::string options(const tflite::Operator& op) {
  using namespace tflite;
  if (op.builtin_options_type() != BuiltinOptions_NONE && op.builtin_options() == nullptr) {
    // A tag without a table: TFLite reads the options' defaults.
    const char* name = EnumNameBuiltinOptions(op.builtin_options_type());
    return std::string(*name ? name : "BuiltinOptions") + "{absent}";
  }
  switch (op.builtin_options_type()) {
    case BuiltinOptions_NONE:
      return "";
    case BuiltinOptions_FullyConnectedOptions: {
      const auto* o = op.builtin_options_as_FullyConnectedOptions();
      return "FullyConnectedOptions{fused_activation_function=" +
             act(o->fused_activation_function()) +
             ", weights_format=" + EnumNameFullyConnectedOptionsWeightsFormat(o->weights_format()) +
             ", keep_num_dims=" + b(o->keep_num_dims()) +
             ", asymmetric_quantize_inputs=" + b(o->asymmetric_quantize_inputs()) +
             ", quantized_bias_type=" + tensor_type_name(o->quantized_bias_type()) + "}";
    }
    case BuiltinOptions_Conv2DOptions: {
      const auto* o = op.builtin_options_as_Conv2DOptions();
      return "Conv2DOptions{padding=" + padding(o->padding()) +
             ", stride_w=" + std::to_string(o->stride_w()) +
             ", stride_h=" + std::to_string(o->stride_h()) +
             ", fused_activation_function=" + act(o->fused_activation_function()) +
             ", dilation_w_factor=" + std::to_string(o->dilation_w_factor()) +
             ", dilation_h_factor=" + std::to_string(o->dilation_h_factor()) +
             ", quantized_bias_type=" + tensor_type_name(o->quantized_bias_type()) + "}";
    }
    case BuiltinOptions_DepthwiseConv2DOptions: {
      const auto* o = op.builtin_options_as_DepthwiseConv2DOptions();
      return "DepthwiseConv2DOptions{padding=" + padding(o->padding()) +
             ", stride_w=" + std::to_string(o->stride_w()) +
             ", stride_h=" + std::to_string(o->stride_h()) +
             ", depth_multiplier=" + std::to_string(o->depth_multiplier()) +
             ", fused_activation_function=" + act(o->fused_activation_function()) +
             ", dilation_w_factor=" + std::to_string(o->dilation_w_factor()) +
             ", dilation_h_factor=" + std::to_string(o->dilation_h_factor()) + "}";
    }
    case BuiltinOptions_Pool2DOptions: {
      const auto* o = op.builtin_options_as_Pool2DOptions();
      return "Pool2DOptions{padding=" + padding(o->padding()) +
             ", stride_w=" + std::to_string(o->stride_w()) +
             ", stride_h=" + std::to_string(o->stride_h()) +
             ", filter_width=" + std::to_string(o->filter_width()) +
             ", filter_height=" + std::to_string(o->filter_height()) +
             ", fused_activation_function=" + act(o->fused_activation_function()) + "}";
    }
    case BuiltinOptions_SoftmaxOptions:
      return "SoftmaxOptions{beta=" + fmt_float(op.builtin_options_as_SoftmaxOptions()->beta()) +
             "}";
    case BuiltinOptions_ConcatenationOptions: {
      const auto* o = op.builtin_options_as_ConcatenationOptions();
      return "ConcatenationOptions{axis=" + std::to_string(o->axis()) +
             ", fused_activation_function=" + act(o->fused_activation_function()) + "}";
    }
    case BuiltinOptions_AddOptions: {
      const auto* o = op.builtin_options_as_AddOptions();
      return "AddOptions{fused_activation_function=" + act(o->fused_activation_function()) +
             ", pot_scale_int16=" + b(o->pot_scale_int16()) + "}";
    }
    case BuiltinOptions_SubOptions: {
      const auto* o = op.builtin_options_as_SubOptions();
      return "SubOptions{fused_activation_function=" + act(o->fused_activation_function()) +
             ", pot_scale_int16=" + b(o->pot_scale_int16()) + "}";
    }
    case BuiltinOptions_MulOptions:
      return "MulOptions{fused_activation_function=" +
             act(op.builtin_options_as_MulOptions()->fused_activation_function()) + "}";
    case BuiltinOptions_DivOptions:
      return "DivOptions{fused_activation_function=" +
             act(op.builtin_options_as_DivOptions()->fused_activation_function()) + "}";
    case BuiltinOptions_ReshapeOptions:
      return "ReshapeOptions{new_shape=" +
             ints(op.builtin_options_as_ReshapeOptions()->new_shape()) + "}";
    case BuiltinOptions_GatherOptions: {
      const auto* o = op.builtin_options_as_GatherOptions();
      return "GatherOptions{axis=" + std::to_string(o->axis()) +
             ", batch_dims=" + std::to_string(o->batch_dims()) + "}";
    }
    case BuiltinOptions_ReducerOptions:
      return "ReducerOptions{keep_dims=" + b(op.builtin_options_as_ReducerOptions()->keep_dims()) +
             "}";
    case BuiltinOptions_SqueezeOptions:
      return "SqueezeOptions{squeeze_dims=" +
             ints(op.builtin_options_as_SqueezeOptions()->squeeze_dims()) + "}";
    case BuiltinOptions_StridedSliceOptions: {
      const auto* o = op.builtin_options_as_StridedSliceOptions();
      return "StridedSliceOptions{begin_mask=" + std::to_string(o->begin_mask()) +
             ", end_mask=" + std::to_string(o->end_mask()) +
             ", ellipsis_mask=" + std::to_string(o->ellipsis_mask()) +
             ", new_axis_mask=" + std::to_string(o->new_axis_mask()) +
             ", shrink_axis_mask=" + std::to_string(o->shrink_axis_mask()) +
             ", offset=" + b(o->offset()) + "}";
    }
    case BuiltinOptions_CastOptions: {
      const auto* o = op.builtin_options_as_CastOptions();
      return "CastOptions{in_data_type=" + tensor_type_name(o->in_data_type()) +
             ", out_data_type=" + tensor_type_name(o->out_data_type()) + "}";
    }
    case BuiltinOptions_ShapeOptions:
      return "ShapeOptions{out_type=" +
             tensor_type_name(op.builtin_options_as_ShapeOptions()->out_type()) + "}";
    case BuiltinOptions_PackOptions: {
      const auto* o = op.builtin_options_as_PackOptions();
      return "PackOptions{values_count=" + std::to_string(o->values_count()) +
             ", axis=" + std::to_string(o->axis()) + "}";
    }
    case BuiltinOptions_BatchMatMulOptions: {
      const auto* o = op.builtin_options_as_BatchMatMulOptions();
      return "BatchMatMulOptions{adj_x=" + b(o->adj_x()) + ", adj_y=" + b(o->adj_y()) +
             ", asymmetric_quantize_inputs=" + b(o->asymmetric_quantize_inputs()) + "}";
    }
    case BuiltinOptions_GeluOptions:
      return "GeluOptions{approximate=" + b(op.builtin_options_as_GeluOptions()->approximate()) +
             "}";
    case BuiltinOptions_TransposeOptions:
      return "TransposeOptions{}";
    case BuiltinOptions_DequantizeOptions:
      return "DequantizeOptions{}";
    case BuiltinOptions_QuantizeOptions:
      return "QuantizeOptions{}";
    case BuiltinOptions_ExpandDimsOptions:
      return "ExpandDimsOptions{}";
    default:
      return "BuiltinOptions(" + std::to_string(op.builtin_options_type()) + "){not decoded}";
  }
}

std::string quantization(const tflite::QuantizationParameters* q) {
  if (!q) return "";
  std::string out;
  if (q->scale() && q->scale()->size() > 0) {
    out += " quant{scale=" +
           list(
               q->scale(), [](float x) { return fmt_float(x); }, kMaxListed) +
           " zero_point=" +
           list(
               q->zero_point(), [](int64_t x) { return std::to_string(x); }, kMaxListed) +
           " quantized_dimension=" + std::to_string(q->quantized_dimension()) + "}";
  }
  if (q->min() && q->min()->size() > 0) {
    out += " min=" +
           list(
               q->min(), [](float x) { return fmt_float(x); }, kMaxListed) +
           " max=" +
           list(
               q->max(), [](float x) { return fmt_float(x); }, kMaxListed);
  }
  if (q->details_type() != tflite::QuantizationDetails_NONE) {
    out += " details=" + std::string(tflite::EnumNameQuantizationDetails(q->details_type()));
  }
  return out;
}

std::string quoted(const flatbuffers::String* s) {
  return "\"" + (s ? s->str() : "") + "\"";
}

}  // namespace

std::string dump(const ModelFile& file) {
  const tflite::Model& m = file.model();
  std::ostringstream out;
  out << "TFLite model " << file.name() << ": schema version " << m.version() << ", "
      << file.bytes().size() << " bytes, description " << quoted(m.description()) << "\n";
  const uint32_t ncodes = m.operator_codes() ? m.operator_codes()->size() : 0;
  out << "operator codes (" << ncodes << "):\n";
  for (uint32_t i = 0; i < ncodes; ++i) {
    const tflite::OperatorCode& c = *m.operator_codes()->Get(i);
    out << "  " << i << ": " << builtin_operator_name(builtin_code(c)) << " v" << c.version();
    if (c.custom_code()) out << " custom " << quoted(c.custom_code());
    out << "\n";
  }
  for (uint32_t s = 0; s < m.subgraphs()->size(); ++s) {
    const tflite::SubGraph& g = *m.subgraphs()->Get(s);
    const uint32_t nt = g.tensors() ? g.tensors()->size() : 0;
    const uint32_t nops = g.operators() ? g.operators()->size() : 0;
    out << "subgraph " << s << " " << quoted(g.name()) << ": " << nt << " tensors, " << nops
        << " operators, inputs " << ints(g.inputs()) << ", outputs " << ints(g.outputs()) << "\n";
    for (uint32_t t = 0; t < nt; ++t) {
      const tflite::Tensor& x = *g.tensors()->Get(t);
      out << "  tensor " << t << " " << quoted(x.name()) << " " << tensor_type_name(x.type()) << " "
          << ints(x.shape());
      if (x.shape_signature()) out << " signature " << ints(x.shape_signature());
      const tflite::Buffer* buf =
          m.buffers() && x.buffer() < m.buffers()->size() ? m.buffers()->Get(x.buffer()) : nullptr;
      if (buf && buf->data() && buf->data()->size() > 0) {
        out << " const(buffer " << x.buffer() << ", " << buf->data()->size() << " bytes)";
      }
      if (x.is_variable()) out << " variable";
      if (x.sparsity()) out << " sparse";
      out << quantization(x.quantization()) << "\n";
    }
    for (uint32_t o = 0; o < nops; ++o) {
      const tflite::Operator& op = *g.operators()->Get(o);
      const tflite::OperatorCode& c = *m.operator_codes()->Get(op.opcode_index());
      out << "  op " << o << " " << builtin_operator_name(builtin_code(c)) << " v" << c.version()
          << " inputs " << ints(op.inputs()) << " outputs " << ints(op.outputs());
      const std::string opts = options(op);
      if (!opts.empty()) out << " " << opts;
      out << "\n";
    }
  }
  if (m.signature_defs()) {
    for (const tflite::SignatureDef* sig : *m.signature_defs()) {
      out << "signature " << quoted(sig->signature_key()) << " subgraph " << sig->subgraph_index();
      for (const auto& [label, maps] :
           {std::pair{" inputs", sig->inputs()}, {" outputs", sig->outputs()}}) {
        out << label << " {";
        if (maps) {
          for (size_t i = 0; i < maps->size(); ++i) {
            out << (i ? ", " : "") << (maps->Get(i)->name() ? maps->Get(i)->name()->str() : "")
                << ": " << maps->Get(i)->tensor_index();
          }
        }
        out << "}";
      }
      out << "\n";
    }
  }
  if (m.metadata()) {
    for (const tflite::Metadata* md : *m.metadata()) {
      const tflite::Buffer* buf = m.buffers()->Get(md->buffer());
      const size_t n = buf->data() ? buf->data()->size() : 0;
      out << "metadata " << quoted(md->name()) << " buffer " << md->buffer() << " (" << n
          << " bytes)";
      if (md->name() && md->name()->str() == "min_runtime_version" && n > 0) {
        std::string v(reinterpret_cast<const char*>(buf->data()->data()), n);
        out << " \"" << v.substr(0, v.find('\0')) << "\"";
      }
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace tfs::lite
