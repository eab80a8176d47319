// Shape inference through a function's body for a call node, as TF's ShapeRefiner infers the
// outputs of a PartitionedCall/StatefulPartitionedCall: the arguments take the caller's input
// shapes, every node's shape function runs again in graph order, and the return values' shapes
// are the call's outputs. A function traced with (None,) and called with a (2,) tensor gives a
// (2,) output, as in TF.
#include <optional>
#include <unordered_map>

#include "tfscope/graph.h"

namespace tfs {

namespace {

bool is_call_op(const Node& n) {
  return n.op() == "PartitionedCall" || n.op() == "StatefulPartitionedCall";
}

std::vector<PartialShape> infer_body(const GraphFunction& fn,
                                     const std::vector<PartialShape>& arg_shapes, int depth);

// Node -> its output shapes under the caller's argument shapes.
using ShapeMap = std::unordered_map<const Node*, std::vector<PartialShape>>;

std::vector<PartialShape> refined_outputs(const Node& n, const ShapeMap& shapes, int depth,
                                          const Graph& g) {
  std::vector<PartialShape> in;
  in.reserve(n.inputs.size());
  for (const Output& o : n.inputs) {
    auto it = shapes.find(o.node);
    in.push_back(it != shapes.end() ? it->second[static_cast<size_t>(o.index)]
                                    : o.node->output_shapes[static_cast<size_t>(o.index)]);
  }
  if (is_call_op(n)) {
    const auto* f = std::get_if<FuncAttr>(&n.attrs.at("f"));
    const GraphFunction* callee = f ? g.find_function(f->name) : nullptr;
    if (callee && depth < 32) return infer_body(*callee, in, depth + 1);
    return n.output_shapes;
  }
  return infer_node_shapes(n, in);
}

std::vector<PartialShape> infer_body(const GraphFunction& fn,
                                     const std::vector<PartialShape>& arg_shapes, int depth) {
  ShapeMap shapes;
  for (size_t i = 0; i < fn.args.size() && i < arg_shapes.size(); ++i) {
    // The argument keeps what the caller knows, narrowed by the placeholder's own shape.
    auto merged = arg_shapes[i].merge_with(fn.args[i]->output_shapes[0]);
    shapes[fn.args[i]] = {merged ? *merged : fn.args[i]->output_shapes[0]};
  }
  for (const auto& up : fn.graph->nodes()) {
    const Node& n = *up;
    if (shapes.count(&n)) continue;
    if (n.op() == "Placeholder" || n.op() == "Const") continue;  // keep their own shapes
    // What the trace knew stays known (a variable read has its handle's shape, which the shape
    // function cannot see); inference only adds what the caller's shapes tell.
    std::vector<PartialShape> refined = refined_outputs(n, shapes, depth, *fn.graph);
    for (size_t k = 0; k < refined.size() && k < n.output_shapes.size(); ++k) {
      auto merged = refined[k].merge_with(n.output_shapes[k]);
      refined[k] = merged ? *merged : n.output_shapes[k];
    }
    shapes[&n] = std::move(refined);
  }
  std::vector<PartialShape> out;
  for (const Output& o : fn.outputs) {
    const PartialShape& traced = o.node->output_shapes[static_cast<size_t>(o.index)];
    auto it = shapes.find(o.node);
    if (it == shapes.end()) {
      out.push_back(traced);
      continue;
    }
    auto merged = it->second[static_cast<size_t>(o.index)].merge_with(traced);
    out.push_back(merged ? *merged : traced);
  }
  return out;
}

// ---- constant evaluation and partial shapes (TF's eval_const_tensor and ConstantPartialShape)

constexpr int64_t kMaxConstantElements = 1024;
constexpr int kMaxConstantDepth = 16;

std::vector<int64_t> ints_of(const Tensor& t) {
  std::vector<int64_t> out;
  if (t.dtype() == DType::kInt32) {
    for (int32_t v : t.to_vector<int32_t>()) out.push_back(v);
  } else if (t.dtype() == DType::kInt64) {
    out = t.to_vector<int64_t>();
  }
  return out;
}

Tensor int_tensor(const std::vector<int64_t>& v, DType dtype) {
  if (dtype == DType::kInt64) return Tensor::from_vector<int64_t>(v);
  std::vector<int32_t> w(v.begin(), v.end());
  return Tensor::from_vector<int32_t>(w);
}

std::optional<Tensor> evaluate(const Output& o, int depth);

// A StridedSlice that picks one dim out of a Shape op's output: the dim, when known.
std::optional<Tensor> dim_of_shape(const Node& n) {
  if (n.op() != "StridedSlice" || n.inputs.size() != 4) return std::nullopt;
  const Node& shape = *n.inputs[0].node;
  if (shape.op() != "Shape" || attr_int_or(n.attrs, "shrink_axis_mask", 0) != 1)
    return std::nullopt;
  if (attr_int_or(n.attrs, "ellipsis_mask", 0) || attr_int_or(n.attrs, "new_axis_mask", 0))
    return std::nullopt;
  const Node& b = *n.inputs[1].node;
  if (b.op() != "Const") return std::nullopt;
  std::vector<int64_t> begin = ints_of(std::get<Tensor>(b.attrs.at("value")));
  const PartialShape& in =
      shape.inputs[0].node->output_shapes[static_cast<size_t>(shape.inputs[0].index)];
  if (begin.size() != 1 || !in.has_rank()) return std::nullopt;
  int64_t i = begin[0] < 0 ? begin[0] + in.rank() : begin[0];
  if (i < 0 || i >= in.rank() || in.dim(static_cast<int>(i)) < 0) return std::nullopt;
  return int_tensor({in.dim(static_cast<int>(i))}, n.output_dtypes[0]).reshaped(Shape{});
}

// Kernels one constant_partial_shape may run, so that a wide graph cannot make it slow.
thread_local int t_evaluation_budget = 0;

std::optional<Tensor> evaluate_node(const Node& n, int index, int depth) {
  if (n.op() == "Const") return std::get<Tensor>(n.attrs.at("value"));
  if (depth > kMaxConstantDepth || t_evaluation_budget <= 0) return std::nullopt;
  --t_evaluation_budget;
  if (n.op() == "Shape") {
    auto s = n.inputs[0].node->output_shapes[static_cast<size_t>(n.inputs[0].index)].to_shape();
    if (!s) return std::nullopt;
    return int_tensor(s->dims(), n.output_dtypes[0]);
  }
  if (auto d = dim_of_shape(n)) return d;
  if (n.op() == "Placeholder" || n.def->stateful || !n.def->kernel || n.attrs.count("f"))
    return std::nullopt;
  std::vector<Tensor> inputs;
  for (const Output& in : n.inputs) {
    auto v = evaluate(in, depth + 1);
    if (!v || v->dtype() == DType::kResource || v->dtype() == DType::kVariant ||
        v->num_elements() > kMaxConstantElements)
      return std::nullopt;
    inputs.push_back(*v);
  }
  try {
    std::vector<Tensor> out = run_kernel(*n.def, inputs, n.attrs, nullptr, n.name);
    if (static_cast<size_t>(index) >= out.size() ||
        out[static_cast<size_t>(index)].num_elements() > kMaxConstantElements)
      return std::nullopt;
    return out[static_cast<size_t>(index)];
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::optional<Tensor> evaluate(const Output& o, int depth) {
  return evaluate_node(*o.node, o.index, depth);
}

std::optional<std::vector<int64_t>> partial_dims(const Output& o, int depth) {
  const Node& n = *o.node;
  if (depth > kMaxConstantDepth) return std::nullopt;
  if (n.op() == "Shape") {
    const PartialShape& in =
        n.inputs[0].node->output_shapes[static_cast<size_t>(n.inputs[0].index)];
    if (!in.has_rank()) return std::nullopt;
    return in.dims();
  }
  if (n.op() == "Pack" && attr_int_or(n.attrs, "axis", 0) == 0) {
    std::vector<int64_t> dims;
    for (const Output& in : n.inputs) {
      const PartialShape& s = in.node->output_shapes[static_cast<size_t>(in.index)];
      if (s.rank() != 0) return std::nullopt;
      auto v = evaluate(in, depth + 1);
      std::vector<int64_t> x = v ? ints_of(*v) : std::vector<int64_t>{};
      dims.push_back(x.size() == 1 ? x[0] : -1);
    }
    return dims;
  }
  if (n.op() == "ConcatV2" && !n.inputs.empty()) {
    auto axis = evaluate(n.inputs.back(), depth + 1);
    if (!axis || ints_of(*axis) != std::vector<int64_t>{0}) return std::nullopt;
    std::vector<int64_t> dims;
    for (size_t i = 0; i + 1 < n.inputs.size(); ++i) {
      auto part = partial_dims(n.inputs[i], depth + 1);
      if (!part) return std::nullopt;
      dims.insert(dims.end(), part->begin(), part->end());
    }
    return dims;
  }
  if (n.op() == "Cast") return partial_dims(n.inputs[0], depth + 1);
  auto v = evaluate(o, depth);
  if (!v || v->shape().rank() != 1) return std::nullopt;
  return ints_of(*v);
}

}  // namespace

std::optional<Tensor> constant_partial_shape(const Output& o) {
  const Node& n = *o.node;
  DType dt = n.output_dtypes[static_cast<size_t>(o.index)];
  if (dt != DType::kInt32 && dt != DType::kInt64) return std::nullopt;
  const std::string& op = n.op();
  if (op != "Shape" && op != "Pack" && op != "ConcatV2" && op != "Cast" && op != "StridedSlice")
    return std::nullopt;
  t_evaluation_budget = 64;
  auto dims = partial_dims(o, 0);
  if (!dims) return std::nullopt;
  return int_tensor(*dims, dt);
}

std::vector<PartialShape> infer_call_output_shapes(const GraphFunction& fn,
                                                   const std::vector<PartialShape>& arg_shapes) {
  try {
    return infer_body(fn, arg_shapes, 0);
  } catch (const Error&) {
    return fn.output_shapes();
  }
}

}  // namespace tfs
