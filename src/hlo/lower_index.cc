// Indexing ops: Slice and StridedSlice as slice (a reverse first for negative strides, a reshape
// to the final shape after), GatherV2 as gather, OneHot as a compare with an iota.
#include "lower.h"
#include "tfscope/detail/strided_slice.h"
#include "tfscope/errors.h"

namespace tfs::hlo::detail {

namespace {

Node* self(const Node& n) {
  return const_cast<Node*>(&n);
}

void set_result(Lowering& l, const Node& n, Instr* i) {
  l.set({self(n), 0}, {i, nullptr, n.output_dtypes[0], i->shape.dims});
}

// XLA's slice attribute: "slice={[1:3], [0:4]}", every dim with its stride when one is not 1.
std::string slice_attr(const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
                       const std::vector<int64_t>& strides) {
  bool unit = true;
  for (int64_t s : strides) unit = unit && s == 1;
  std::string out = ", slice={";
  for (size_t i = 0; i < begin.size(); ++i) {
    out += (i ? ", [" : "[") + std::to_string(begin[i]) + ":" + std::to_string(end[i]);
    if (!unit) out += ":" + std::to_string(strides[i]);
    out += "]";
  }
  return out + "}";
}

Instr* slice(Lowering& l, Instr* x, const std::vector<int64_t>& begin,
             const std::vector<int64_t>& end, const std::vector<int64_t>& strides) {
  std::vector<int64_t> dims;
  for (size_t i = 0; i < begin.size(); ++i)
    dims.push_back((end[i] - begin[i] + strides[i] - 1) / strides[i]);
  return l.emit("slice", HloShape::array(x->shape.type, dims), {x},
                slice_attr(begin, end, strides));
}

bool lower_strided_slice(Lowering& l, const Node& n) {
  const XlaValue& in = l.get(n.inputs[0]);
  std::vector<int64_t> begin = constant_ints(l, n, 1), end = constant_ints(l, n, 2);
  std::vector<int64_t> strides = constant_ints(l, n, 3);
  tfs::detail::StridedSliceSpec spec;
  if (auto err = tfs::detail::validate_strided_slice(in.dims, &begin, &end, strides,
                                                     tfs::detail::slice_masks(n.attrs), &spec))
    throw Error(ErrorKind::kInvalidArgument, *err);
  // tf2xla: a negative stride reverses its dim and slices the mirrored interval.
  std::vector<int64_t> b, e, s, reversed;
  for (size_t i = 0; i < in.dims.size(); ++i) {
    const int64_t dim = in.dims[i];
    if (spec.strides[i] > 0) {
      b.push_back(spec.begin[i]);
      e.push_back(std::max(spec.end[i], spec.begin[i]));
      s.push_back(spec.strides[i]);
    } else {
      b.push_back(dim - spec.begin[i] - 1);
      e.push_back(std::max(dim - spec.end[i] - 1, dim - spec.begin[i] - 1));
      s.push_back(-spec.strides[i]);
      reversed.push_back(static_cast<int64_t>(i));
    }
  }
  Instr* x = l.operand(in);
  if (!reversed.empty())
    x = l.emit("reverse", x->shape, {x}, ", dimensions=" + format_ints(reversed));
  x = slice(l, x, b, e, s);
  set_result(l, n, l.emit("reshape", HloShape::array(n.output_dtypes[0], spec.final_shape), {x}));
  return true;
}

bool lower_slice(Lowering& l, const Node& n) {
  const XlaValue& in = l.get(n.inputs[0]);
  std::vector<int64_t> begin = constant_ints(l, n, 1), size = constant_ints(l, n, 2), end;
  for (size_t i = 0; i < begin.size(); ++i)
    end.push_back(size[i] == -1 ? in.dims.at(i) : begin[i] + size[i]);
  set_result(l, n, slice(l, l.operand(in), begin, end, std::vector<int64_t>(begin.size(), 1)));
  return true;
}

// tf2xla's gather along one axis: the indices' dims replace the axis in the output.
bool lower_gather(Lowering& l, const Node& n) {
  if (attr_int_or(n.attrs, "batch_dims", 0) != 0)
    throw Error(ErrorKind::kNotImplemented, "[hlo] GatherV2 with batch_dims is not lowered yet");
  const XlaValue& params = l.get(n.inputs[0]);
  const XlaValue& indices = l.get(n.inputs[1]);
  const int64_t rank = static_cast<int64_t>(params.dims.size());
  const int64_t q = static_cast<int64_t>(indices.dims.size());
  int64_t axis = constant_ints(l, n, 2).at(0);
  if (axis < 0) axis += rank;
  std::vector<int64_t> offset_dims, slice_sizes = params.dims;
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis) offset_dims.push_back(i < axis ? i : i + q - 1);
  slice_sizes[static_cast<size_t>(axis)] = 1;
  const std::string a = "{" + std::to_string(axis) + "}";
  Instr* p = l.operand(params);
  Instr* idx = l.operand(indices);
  set_result(l, n,
             l.emit("gather", HloShape::array(n.output_dtypes[0], static_dims(n)), {p, idx},
                    ", offset_dims=" + format_ints(offset_dims) + ", collapsed_slice_dims=" + a +
                        ", start_index_map=" + a + ", index_vector_dim=" + std::to_string(q) +
                        ", slice_sizes=" + format_ints(slice_sizes)));
  return true;
}

// XlaHelpers::OneHot: the indices broadcast along the new axis, compared with an iota over it.
bool lower_one_hot(Lowering& l, const Node& n) {
  const XlaValue& indices = l.get(n.inputs[0]);
  std::vector<int64_t> out = static_dims(n);
  int64_t axis = attr_int_or(n.attrs, "axis", -1);
  if (axis < 0) axis = static_cast<int64_t>(indices.dims.size());
  std::vector<int64_t> mapping;
  for (int64_t i = 0; i < static_cast<int64_t>(out.size()); ++i)
    if (i != axis) mapping.push_back(i);
  Instr* iota = l.emit("iota", HloShape::array(indices.dtype, out), {},
                       ", iota_dimension=" + std::to_string(axis));
  Instr* b = l.broadcast_in_dim(l.operand(indices), out, mapping);
  Instr* eq = l.emit("compare", HloShape::array(DType::kBool, out), {b, iota}, ", direction=EQ");
  Instr* on = l.broadcast_to(l.get(n.inputs[2]), out);
  Instr* off = l.broadcast_to(l.get(n.inputs[3]), out);
  set_result(l, n, l.emit("select", HloShape::array(n.output_dtypes[0], out), {eq, on, off}));
  return true;
}

}  // namespace

bool lower_index(Lowering& l, const Node& n) {
  const std::string& op = n.op();
  if (op == "StridedSlice") return lower_strided_slice(l, n);
  if (op == "Slice") return lower_slice(l, n);
  if (op == "GatherV2") return lower_gather(l, n);
  if (op == "OneHot") return lower_one_hot(l, n);
  return false;
}

}  // namespace tfs::hlo::detail
