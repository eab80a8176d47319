// inspect_report: the text dump (lite_dump.cc) or the same facts as JSON.
#include "tfscope/lite_inspect.h"

#include <nlohmann/json.hpp>

#include "tfscope/lite_format.h"

namespace tfs::lite {
namespace {

template <typename T>
nlohmann::ordered_json list(const flatbuffers::Vector<T>* v) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  if (v) {
    for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i) out.push_back(v->Get(i));
  }
  return out;
}

nlohmann::ordered_json tensor_json(const tflite::Model& m, const tflite::Tensor& t) {
  nlohmann::ordered_json j;
  j["name"] = t.name() ? t.name()->str() : "";
  j["type"] = tensor_type_name(t.type());
  j["shape"] = list(t.shape());
  if (t.shape_signature()) j["shape_signature"] = list(t.shape_signature());
  const tflite::Buffer* b = m.buffers() ? m.buffers()->Get(t.buffer()) : nullptr;
  j["buffer"] = t.buffer();
  j["const_bytes"] = b && b->data() ? b->data()->size() : 0;
  const tflite::QuantizationParameters* q = t.quantization();
  if (q && q->scale() && q->scale()->size() > 0) {
    j["quantization"] = {{"scale", list(q->scale())},
                         {"zero_point", list(q->zero_point())},
                         {"quantized_dimension", q->quantized_dimension()}};
  }
  return j;
}

std::string json_report(const ModelFile& f) {
  const tflite::Model& m = f.model();
  nlohmann::ordered_json j;
  j["file"] = f.name();
  j["bytes"] = f.bytes().size();
  j["schema_version"] = m.version();
  j["description"] = m.description() ? m.description()->str() : "";
  nlohmann::ordered_json codes = nlohmann::ordered_json::array();
  if (m.operator_codes()) {
    for (const tflite::OperatorCode* c : *m.operator_codes()) {
      codes.push_back(
          {{"builtin", builtin_operator_name(builtin_code(*c))}, {"version", c->version()}});
    }
  }
  j["operator_codes"] = codes;
  nlohmann::ordered_json subgraphs = nlohmann::ordered_json::array();
  if (m.subgraphs()) {
    for (const tflite::SubGraph* sg : *m.subgraphs()) {
      nlohmann::ordered_json s;
      s["name"] = sg->name() ? sg->name()->str() : "";
      s["inputs"] = list(sg->inputs());
      s["outputs"] = list(sg->outputs());
      nlohmann::ordered_json tensors = nlohmann::ordered_json::array();
      if (sg->tensors()) {
        for (const tflite::Tensor* t : *sg->tensors()) tensors.push_back(tensor_json(m, *t));
      }
      s["tensors"] = tensors;
      nlohmann::ordered_json ops = nlohmann::ordered_json::array();
      if (sg->operators()) {
        for (const tflite::Operator* op : *sg->operators()) {
          const tflite::OperatorCode* c = m.operator_codes()->Get(op->opcode_index());
          nlohmann::ordered_json o;
          o["builtin"] = builtin_operator_name(builtin_code(*c));
          o["version"] = c->version();
          o["inputs"] = list(op->inputs());
          o["outputs"] = list(op->outputs());
          o["options"] = tflite::EnumNameBuiltinOptions(op->builtin_options_type());
          if (auto* fc = op->builtin_options_as_FullyConnectedOptions()) {
            o["fused_activation_function"] =
                tflite::EnumNameActivationFunctionType(fc->fused_activation_function());
            o["keep_num_dims"] = fc->keep_num_dims();
            o["asymmetric_quantize_inputs"] = fc->asymmetric_quantize_inputs();
          }
          ops.push_back(o);
        }
      }
      s["operators"] = ops;
      subgraphs.push_back(s);
    }
  }
  j["subgraphs"] = subgraphs;
  nlohmann::ordered_json sigs = nlohmann::ordered_json::array();
  if (m.signature_defs()) {
    for (const tflite::SignatureDef* sd : *m.signature_defs()) {
      nlohmann::ordered_json s, in = nlohmann::ordered_json::object(),
                                out = nlohmann::ordered_json::object();
      if (sd->inputs()) {
        for (const auto* t : *sd->inputs())
          in[t->name() ? t->name()->str() : ""] = t->tensor_index();
      }
      if (sd->outputs()) {
        for (const auto* t : *sd->outputs())
          out[t->name() ? t->name()->str() : ""] = t->tensor_index();
      }
      s["signature_key"] = sd->signature_key() ? sd->signature_key()->str() : "";
      s["inputs"] = in;
      s["outputs"] = out;
      sigs.push_back(s);
    }
  }
  j["signatures"] = sigs;
  nlohmann::ordered_json meta = nlohmann::ordered_json::object();
  if (m.metadata()) {
    for (const tflite::Metadata* md : *m.metadata()) {
      const tflite::Buffer* b = m.buffers() ? m.buffers()->Get(md->buffer()) : nullptr;
      std::string value;
      if (b && b->data()) {
        value.assign(reinterpret_cast<const char*>(b->data()->data()), b->data()->size());
      }
      std::string name = md->name() ? md->name()->str() : "";
      if (name == "min_runtime_version")
        meta[name] = value.substr(0, value.find('\0'));
      else
        meta[name] = std::to_string(value.size()) + " bytes";
    }
  }
  j["metadata"] = meta;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string inspect_report(const std::string& path, bool json) {
  ModelFile f = ModelFile::read(path);
  return json ? json_report(f) + "\n" : dump(f);
}

}  // namespace tfs::lite
