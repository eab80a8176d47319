// tf.print's two ops: StringFormat (tensors into a template, summarised as TF summarises them)
// and PrintV2 (write the string to a stream every time the op runs).
#include <cstdio>
#include <mutex>

#include "kernel_util.h"
#include "tfscope/format.h"
#include "tfscope/ops.h"

namespace tfs {

namespace {

std::mutex g_sink_mu;
PrintSink& sink() {
  static PrintSink s;
  return s;
}

void write_stream(const std::string& stream, const std::string& text) {
  {
    std::lock_guard<std::mutex> lock(g_sink_mu);
    if (sink()) {
      sink()(stream, text);
      return;
    }
  }
  FILE* f = stream == "stdout" ? stdout : stderr;
  std::fwrite(text.data(), 1, text.size(), f);
  std::fflush(f);
}

OpRegistration r_string_format([] {
  OpDef d;
  d.name = "StringFormat";
  d.inputs = {{"inputs", "", DType::kInvalid, "", "T"}};
  d.outputs = {{"output", "", DType::kString}};
  d.shape_fn = detail::scalar_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const AttrMap& a = *ctx.attrs;
    const std::string& tmpl = attr_string(a, "template");
    std::string ph = a.count("placeholder") ? attr_string(a, "placeholder") : "{}";
    int summarize = static_cast<int>(attr_int_or(a, "summarize", 3));
    std::string out;
    size_t pos = 0;
    int used = 0;
    while (true) {
      size_t at = tmpl.find(ph, pos);
      if (at == std::string::npos) break;
      if (used >= ctx.num_inputs()) {
        ctx.fail("Num placeholders in template and num inputs must match: " +
                 std::to_string(used + 1) + " vs. " + std::to_string(ctx.num_inputs()));
      }
      out += tmpl.substr(pos, at - pos);
      out += format_tf_summarize(ctx.input(used++), summarize);
      pos = at + ph.size();
    }
    if (used != ctx.num_inputs()) {
      ctx.fail("Num placeholders in template and num inputs must match: " + std::to_string(used) +
               " vs. " + std::to_string(ctx.num_inputs()));
    }
    out += tmpl.substr(pos);
    ctx.set_output(0, Tensor::string_scalar(std::move(out)));
  };
  return d;
}());

OpRegistration r_print([] {
  OpDef d;
  d.name = "PrintV2";
  d.inputs = {{"input", "", DType::kString}};
  d.stateful = true;
  d.kernel = [](OpKernelContext& ctx) {
    const AttrMap& a = *ctx.attrs;
    std::string stream = a.count("output_stream") ? attr_string(a, "output_stream") : "stderr";
    std::string end = a.count("end") ? attr_string(a, "end") : "\n";
    write_stream(stream, ctx.input(0).string_values().at(0) + end);
  };
  return d;
}());

}  // namespace

void set_print_sink(PrintSink s) {
  std::lock_guard<std::mutex> lock(g_sink_mu);
  sink() = std::move(s);
}

void print(const std::vector<Value>& inputs, const PrintOptions& options) {
  // Host values are formatted into the template now (frozen at trace time in a graph); tensors
  // become placeholders that StringFormat fills on every run.
  std::string tmpl;
  std::vector<Tensor> tensors;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i) tmpl += options.sep;
    const Value& v = inputs[i];
    if (v.kind() == Value::Kind::kTensor) {
      tmpl += "{}";
      tensors.push_back(v.as_tensor());
    } else if (v.kind() == Value::Kind::kVariable) {
      tmpl += "{}";
      tensors.push_back(convert_to_tensor(v));
    } else {
      tmpl += v.str();
    }
  }
  Tensor s = execute1("StringFormat", tensors,
                      {{"template", tmpl},
                       {"placeholder", std::string("{}")},
                       {"summarize", static_cast<int64_t>(options.summarize)}},
                      "StringFormat");
  execute("PrintV2", {s}, {{"output_stream", options.output_stream}, {"end", options.end}},
          "PrintV2");
}

namespace detail {
void anchor_io_ops() {}
}  // namespace detail
}  // namespace tfs
