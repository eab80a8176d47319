#include "tracer.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <mutex>

#include "tfscope/composite_type.h"
#include "tfscope/executor.h"
#include "tfscope/gradient_functions.h"
#include "tfscope/nest.h"
#include "tfscope/passes.h"

namespace tfs::detail {

namespace {

// TF's name for an argument's TensorSpec in structured_input_signature: the path ("d_a b",
// "d_-1", "d_(1, 2)") lowercased, each character that is not a letter or digit made '_'
// ("d_a_b", "d__1", "d__1__2_"). Non-ASCII characters count as letters; Latin-1 capitals are
// lowercased (Python's full Unicode tables are not modelled).
std::string spec_arg_name(const std::string& path) {
  std::string out;
  out.reserve(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(path[i]);
    if (c < 0x80) {
      out += std::isalnum(c) ? static_cast<char>(std::tolower(c)) : '_';
    } else if (c == 0xc3 && i + 1 < path.size()) {  // U+00C0..U+00FF
      unsigned char d = static_cast<unsigned char>(path[++i]);
      if (d == 0x97 || d == 0xb7) {  // the multiplication and division signs
        out += '_';
        continue;
      }
      bool capital = d >= 0x80 && d <= 0x9e;  // U+00C0..U+00DE
      out += static_cast<char>(c);
      out += static_cast<char>(capital ? d + 0x20 : d);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// Builds what the body receives from a TraceType: placeholders for tensors and variables, the
// traced literal for literals. Records placeholders with a sort key for the flat call order.
struct PlaceholderBuilder {
  FuncGraphBuilder& builder;
  struct Leaf {
    std::vector<std::string> sort_path;
    Node* node;
  };
  std::vector<Leaf> leaves;

  Value build(const TraceType& t, const Value& actual, const std::string& name,
              std::vector<std::string> path, Value* spec_out, const std::string& spec_name) {
    using K = TraceType::Kind;
    switch (t.kind()) {
      case K::kTensorSpec: {
        // A named TensorSpec in an input_signature names the placeholder and the spec.
        const std::string& pname = t.spec().has_name ? t.spec().name : name;
        Tensor ph = builder.add_placeholder(pname, t.spec().dtype, t.spec().shape);
        leaves.push_back({path, ph.node()});
        *spec_out = Value(TensorSpec(t.spec().shape, t.spec().dtype,
                                     t.spec().has_name ? t.spec().name : spec_arg_name(spec_name)));
        return Value(ph);
      }
      case K::kVariableSpec: {
        Tensor ph = builder.add_placeholder(name, DType::kResource, Shape{});
        leaves.push_back({path, ph.node()});
        builder.bind_argument_resource(actual.as_variable(), ph);
        *spec_out = Value(std::shared_ptr<Object>(std::make_shared<VariableSpecValue>(
            t.spec().shape, t.spec().dtype, t.trainable(), t.alias_id())));
        return actual;
      }
      case K::kList:
      case K::kTuple:
      case K::kNamedTuple: {
        ValueList items, specs;
        const auto& act = actual.kind() == Value::Kind::kList ||
                                  actual.kind() == Value::Kind::kTuple ||
                                  actual.kind() == Value::Kind::kNamedTuple
                              ? actual.items()
                              : ValueList{};
        for (size_t i = 0; i < t.children().size(); ++i) {
          auto p = path;
          char buf[24];
          std::snprintf(buf, sizeof buf, "%08zu", i);
          p.push_back(buf);
          Value s;
          items.push_back(build(t.children()[i], i < act.size() ? act[i] : Value(), name, p, &s,
                                spec_name + "_" + std::to_string(i)));
          specs.push_back(s);
        }
        if (t.kind() == K::kList) {
          *spec_out = Value::list(specs);
          return Value::list(items);
        }
        if (t.kind() == K::kTuple) {
          *spec_out = Value::tuple(specs);
          return Value::tuple(items);
        }
        *spec_out = Value::named_tuple(t.type_name(), t.fields(), specs);
        return Value::named_tuple(t.type_name(), t.fields(), items);
      }
      case K::kDict: {
        // Placeholders are made in the dict's own order; the flat order is nest's (sorted keys).
        std::vector<size_t> rank(t.keys().size());
        std::vector<size_t> order = nest::sorted_key_order(t.keys());
        for (size_t j = 0; j < order.size(); ++j) rank[order[j]] = j;
        ValueItems items, specs;
        for (size_t i = 0; i < t.keys().size(); ++i) {
          auto p = path;
          char buf[24];
          std::snprintf(buf, sizeof buf, "%08zu", rank[i]);
          p.push_back(buf);
          const Value* a =
              actual.kind() == Value::Kind::kDict ? actual.dict_get(t.keys()[i]) : nullptr;
          Value s;
          std::string key_name = t.keys()[i].str();
          items.emplace_back(t.keys()[i], build(t.children()[i], a ? *a : Value(), name, p, &s,
                                                spec_name + "_" + key_name));
          specs.emplace_back(t.keys()[i], s);
        }
        *spec_out = Value::dict(specs);
        return Value::dict(items);
      }
      case K::kCustom: {
        // The type makes its own placeholders, in its to_tensors order.
        struct Context : PlaceholderContext {
          PlaceholderBuilder& pb;
          const std::string& name;
          const std::vector<std::string>& path;
          size_t made = 0;
          Context(PlaceholderBuilder& pb, const std::string& name,
                  const std::vector<std::string>& path)
              : pb(pb), name(name), path(path) {}
          Tensor placeholder(DType dtype, const PartialShape& shape) override {
            Tensor ph = pb.builder.add_placeholder(name, dtype, shape);
            auto p = path;
            char buf[24];
            std::snprintf(buf, sizeof buf, "%08zu", made++);
            p.push_back(buf);
            pb.leaves.push_back({std::move(p), ph.node()});
            return ph;
          }
        } ctx(*this, name, path);
        Value v = t.custom().placeholder_value(ctx);
        *spec_out = t.custom().signature_value(v);
        return v;
      }
      case K::kWeakref:
        *spec_out = Value(t.object());
        return Value(t.object());
      case K::kLiteral:
        *spec_out = t.literal_value();
        return t.literal_value();
    }
    return Value();
  }
};

// A composite result's place in an output template: its type and how many outputs it takes.
class PackedResult : public Object {
 public:
  PackedResult(std::shared_ptr<const CompositeTraceType> type, size_t n)
      : type(std::move(type)), n(n) {}
  std::string repr() const override { return type->repr(); }
  std::shared_ptr<const CompositeTraceType> type;
  size_t n;
};

const PackedResult* packed_result(const Value& v) {
  if (v.kind() != Value::Kind::kObject) return nullptr;
  return dynamic_cast<const PackedResult*>(v.as_object().get());
}

// Flattens a returned nest (nest's order): tensors, and host numbers and variables converted;
// a composite (a RaggedTensor) gives its type's tensors. The template is the nest with those
// leaves as tensors (a composite as its PackedResult); None stays None.
void flatten_outputs(const Value& v, std::vector<Tensor>& flat, Value* tmpl,
                     const std::string& fn) {
  *tmpl = nest::map_structure(v, [&](const Value& leaf) -> Value {
    if (auto c = result_composite(leaf)) {
      std::vector<Tensor> parts = c->to_tensors(leaf);
      flat.insert(flat.end(), parts.begin(), parts.end());
      return Value(std::shared_ptr<Object>(std::make_shared<PackedResult>(c, parts.size())));
    }
    switch (leaf.kind()) {
      case Value::Kind::kNone:
        return Value();
      case Value::Kind::kTensor:
        flat.push_back(leaf.as_tensor());
        return leaf;
      case Value::Kind::kBool:
      case Value::Kind::kInt:
      case Value::Kind::kFloat:
      case Value::Kind::kStr:
      case Value::Kind::kVariable: {
        Tensor t = convert_to_tensor(leaf);
        flat.push_back(t);
        return Value(t);
      }
      default:
        type_error(
            "To be compatible with tf.function, Python functions must return zero or more "
            "Tensors or ExtensionTypes or None values; in compilation of " +
            fn + ", found return value of type " + leaf.repr() +
            ", which is not a Tensor or ExtensionType.");
    }
  });
}

// TF's acd.get_read_only_resource_input_indices_graph: the resource arguments every consumer
// only reads (a read op, or a call whose own attr lists the input as read-only).
std::vector<int64_t> read_only_resource_inputs(const GraphFunction& gf) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < gf.args.size(); ++i) {
    const Node* arg = gf.args[i];
    if (arg->output_dtypes[0] != DType::kResource) continue;
    bool read_only = true;
    for (const auto& up : gf.graph->nodes()) {
      const Node& n = *up;
      for (size_t k = 0; k < n.inputs.size() && read_only; ++k) {
        if (n.inputs[k].node != arg) continue;
        if (n.op() == "ReadVariableOp" || n.op() == "ResourceGather" || n.op() == "VariableShape")
          continue;
        auto it = n.attrs.find("_read_only_resource_inputs");
        const auto* ro =
            it == n.attrs.end() ? nullptr : std::get_if<std::vector<int64_t>>(&it->second);
        read_only = ro && std::find(ro->begin(), ro->end(), static_cast<int64_t>(k)) != ro->end();
      }
      if (!read_only) break;
    }
    if (read_only) out.push_back(static_cast<int64_t>(i));
  }
  return out;
}

// The serialized ConfigProto TF's eager context puts on every call op it builds (one CPU device,
// no GPU, soft placement), as tensorflow-cpu 2.21 writes it.
const std::string& call_config_proto() {
  static const std::string bytes(
      "\n\x07\n\x03"
      "CPU\x10\x01\n\x07\n\x03GPU\x10\x00"
      "2\x02J\x00"
      "8\x01\x82\x01\x00\x92\x01\x02J\x00",
      32);
  return bytes;
}

// A trace's compiled plan, built when it first runs: TF instantiates a function (grappler and
// all) at its first call, not when it is traced, so a trace that is only staged into other graphs
// or inspected never pays for it. Once built, reaching it is one atomic load (std::call_once).
class PlanOnFirstRun : public CallableFunction {
 public:
  explicit PlanOnFirstRun(std::shared_ptr<const GraphFunction> fn) : fn_(std::move(fn)) {}
  std::vector<Tensor> call(std::span<const Tensor> args) const override {
    std::call_once(once_, [this] { plan_ = Executor::for_function(*fn_, nullptr); });
    return plan_->run(args);
  }

 private:
  std::shared_ptr<const GraphFunction> fn_;
  mutable std::once_flag once_;
  mutable std::shared_ptr<Executor> plan_;
};

// Resolves the call op's `f` to the function's own plan: an eager call needs no library lookup.
// It owns the plan; the context's library holds it weakly, for call ops that name the function.
class OwnPlanRuntime : public FunctionRuntime {
 public:
  explicit OwnPlanRuntime(std::shared_ptr<const GraphFunction> fn)
      : plan_(std::make_shared<PlanOnFirstRun>(std::move(fn))) {}
  std::vector<Tensor> call(const std::string&, std::span<const Tensor> args) override {
    return plan_->call(args);
  }
  std::weak_ptr<const CallableFunction> plan() const { return plan_; }

 private:
  std::shared_ptr<PlanOnFirstRun> plan_;
};

}  // namespace

Value rebuild(const Value& tmpl, std::span<Tensor> results, size_t& k) {
  if (tmpl.kind() == Value::Kind::kTensor) return Value(std::move(results[k++]));
  return nest::map_structure(tmpl, [&](const Value& leaf) {
    if (leaf.kind() == Value::Kind::kTensor) return Value(std::move(results[k++]));
    if (const PackedResult* p = packed_result(leaf)) {
      std::vector<Tensor> parts(std::make_move_iterator(results.begin() + k),
                                std::make_move_iterator(results.begin() + k + p->n));
      k += p->n;
      return p->type->from_tensors(parts);
    }
    return leaf;
  });
}

namespace {

// The output template with the graph's outputs as its tensors (composites kept as they are).
Value with_outputs(const Value& tmpl, const std::vector<Tensor>& outs) {
  size_t k = 0;
  if (tmpl.kind() == Value::Kind::kTensor) return Value(outs[k]);
  return nest::map_structure(tmpl, [&](const Value& leaf) {
    if (leaf.kind() == Value::Kind::kTensor) return Value(outs[k++]);
    if (const PackedResult* p = packed_result(leaf)) k += p->n;
    return leaf;
  });
}

}  // namespace

void Tracer::make_call_op(ConcreteFunction& cf) {
  const GraphFunction& gf = *cf.graph_fn_;
  cf.call_def_ =
      &OpRegistry::global().get(gf.is_stateful ? "StatefulPartitionedCall" : "PartitionedCall");
  cf.call_attrs_ = {
      {"f", FuncAttr{gf.name}},
      {"Tin", gf.arg_dtypes()},
      {"Tout", gf.output_dtypes()},
      {"config", std::string()},
      {"config_proto", call_config_proto()},
      {"executor_type", std::string()},
      {"_read_only_resource_inputs", read_only_resource_inputs(gf)},
      {"_collective_manager_ids", std::vector<int64_t>{}},
  };
  auto runtime = std::make_unique<OwnPlanRuntime>(cf.graph_fn_);
  Context::get().add_function(cf.name_, runtime->plan());
  cf.runtime_ = std::move(runtime);
}

TraceResult Tracer::trace(const TraceRequest& r) {
  auto t0 = std::chrono::steady_clock::now();
  TraceResult result;
  auto cf = std::shared_ptr<ConcreteFunction>(new ConcreteFunction());
  cf->fn_name_ = r.function_name;
  cf->name_ = "__inference_" + r.function_name + "_" + std::to_string(next_uid());
  TracingCallScope::set_function(cf->name_);
  cf->type_ = r.target;
  cf->params_ = r.params;
  cf->has_input_signature_ = r.options.input_signature.has_value();
  cf->for_saving_ = Context::get().in_save_context();
  FuncGraphBuilder builder(r.function_name);
  VariableCreationPolicy policy;
  policy.allowed = r.allow_variable_creation;
  std::vector<Value> body_args;
  Kwargs body_kwargs;
  ValueList sig_pos;
  ValueItems sig_kw;
  std::vector<Tensor> flat_out;
  Value out_template;
  {
    BuildScope bs(builder);
    Context& ctx = Context::get();
    ctx.push_variable_policy(&policy);
    ctx.enter_trace();
    struct Restore {
      Context& ctx;
      ~Restore() {
        ctx.exit_trace();
        ctx.pop_variable_policy();
      }
    } restore{ctx};
    PlaceholderBuilder pb{builder, {}};
    for (size_t i = 0; i < r.target.params.size(); ++i) {
      const auto& p = r.target.params[i];
      Value spec;
      char buf[24];
      std::snprintf(buf, sizeof buf, "%08zu", i);
      Value v = pb.build(p.type, r.bound.values[i], p.name, {buf}, &spec, p.name);
      if (p.kind == ParamKind::kKeywordOnly) {
        body_kwargs.emplace_back(p.name, v);
        sig_kw.emplace_back(Value(p.name), spec);
      } else {
        body_args.push_back(v);
        sig_pos.push_back(spec);
      }
    }
    std::stable_sort(pb.leaves.begin(), pb.leaves.end(),
                     [](auto& x, auto& y) { return x.sort_path < y.sort_path; });
    for (auto& l : pb.leaves) cf->input_placeholders_.push_back(l.node);
    Value returned = r.body(body_args, body_kwargs);
    flatten_outputs(returned, flat_out, &out_template, r.options.display_name);
    auto gf = std::make_shared<GraphFunction>();
    gf->name = cf->name_;
    gf->graph = builder.graph();
    gf->outputs = builder.finalize_outputs(flat_out);
    gf->control_outputs = builder.stateful_ops();
    gf->is_stateful = builder.has_stateful_ops();
    cf->graph_fn_ = gf;
  }
  result.variables_created = policy.created;
  cf->captures_ = builder.captures();
  auto& gf = *cf->graph_fn_;
  gf.args = cf->input_placeholders_;
  for (auto& c : cf->captures_) {
    if (c.kind == "const") continue;
    gf.args.push_back(c.placeholder);
    cf->fed_captures_.push_back(c.external);
    if (c.external.is_symbolic()) cf->symbolic_captures_ = true;
  }
  for (Node* a : gf.args) gf.arg_names.push_back(a->name);
  if (r.options.optimize_graph) optimize(gf);
  // Output tensors in their nest: symbolic Identity outputs.
  std::vector<Tensor> id_outs;
  for (auto& o : gf.outputs) id_outs.push_back(gf.graph->tensor(o.node, o.index));
  cf->output_template_ = with_outputs(out_template, id_outs);
  size_t k = 0;
  cf->structured_outputs_ = rebuild(cf->output_template_, id_outs, k);
  cf->structured_input_signature_ = Value::tuple({Value::tuple(sig_pos), Value::dict(sig_kw)});
  make_call_op(*cf);
  result.cf = std::move(cf);
  result.trace_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace tfs::detail
