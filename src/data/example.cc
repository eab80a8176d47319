// tf.train.Example bytes and ParseExampleV2 (tf.io.parse_example, parse_single_example) for
// FixedLenFeature and VarLenFeature, with TF's texts: a batch's errors name the example
// ("Name: <unknown>, Key: a, Index: 1.  ..."), a single example's the key only.
#include "tfscope/example.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "dataset_impl.h"
#include "tfscope/ops.h"

namespace tfs::data {
namespace {

using Kind = FeatureValue::Kind;

const char* kind_type(Kind k) {
  switch (k) {
    case Kind::kBytes:
      return "string";
    case Kind::kFloat:
      return "float";
    case Kind::kInt64:
      return "int64";
    default:
      return "none";
  }
}

const char* list_name(Kind k) {
  return k == Kind::kBytes ? "bytes_list" : k == Kind::kFloat ? "float_list" : "int64_list";
}

const char* value_name(Kind k) {
  return k == Kind::kBytes ? "bytes" : k == Kind::kFloat ? "float" : "int64";
}

Kind kind_of(DType d) {
  switch (d) {
    case DType::kString:
      return Kind::kBytes;
    case DType::kFloat32:
      return Kind::kFloat;
    case DType::kInt64:
      return Kind::kInt64;
    default:
      invalid_argument("Value for attr of " + std::string(dtype_name(d)) +
                       " is not in the list of allowed values: float, int64, string");
  }
}

const char* dtype_text(DType d) {
  return kind_type(kind_of(d));
}

size_t count_of(const FeatureValue& v) {
  return v.kind == Kind::kBytes   ? v.bytes.size()
         : v.kind == Kind::kFloat ? v.floats.size()
                                  : v.ints.size();
}

// Copies the values of `v` into `out` (of v's dtype) from element `at`.
void copy_values(const FeatureValue& v, Tensor& out, int64_t at) {
  const size_t n = count_of(v);
  switch (v.kind) {
    case Kind::kBytes: {
      auto& s = out.mutable_string_values();
      for (size_t i = 0; i < n; ++i) s[static_cast<size_t>(at) + i] = v.bytes[i];
      break;
    }
    case Kind::kFloat:
      if (n) std::memcpy(out.data<float>() + at, v.floats.data(), n * sizeof(float));
      break;
    case Kind::kInt64:
      if (n) std::memcpy(out.data<int64_t>() + at, v.ints.data(), n * sizeof(int64_t));
      break;
    default:
      break;
  }
}

Tensor make_tensor(DType d, const Shape& s) {
  if (d == DType::kString) {
    return Tensor::strings(std::vector<std::string>(static_cast<size_t>(s.num_elements())), s);
  }
  return Tensor::zeros(d, s);
}

std::string shape_text(const Shape& s) {
  std::string t = "[";
  for (int i = 0; i < s.rank(); ++i) t += (i ? "," : "") + std::to_string(s.dim(i));
  return t + "]";
}

void parse_kernel(OpKernelContext& ctx) {
  const AttrMap& attrs = *ctx.attrs;
  const Tensor& serialized = ctx.input(0);
  const bool single = serialized.eager_shape().rank() == 0;
  const auto& examples = serialized.string_values();
  const int64_t batch = static_cast<int64_t>(examples.size());
  const auto& sparse_keys = ctx.input(2).string_values();
  const auto& dense_keys = ctx.input(3).string_values();
  const auto& sparse_types = attr_types(attrs, "sparse_types");
  const auto& dense_types = attr_types(attrs, "Tdense");
  const auto& dense_shapes = std::get<std::vector<PartialShape>>(attrs.at("dense_shapes"));
  const size_t ns = sparse_keys.size(), nd = dense_keys.size();

  // "Name: <unknown>, Key: a, Index: 1.  " for a batch, "Key: a.  " for one example.
  auto where = [&](const std::string& key, int64_t index) {
    return single ? "Key: " + key + ".  "
                  : "Name: <unknown>, Key: " + key + ", Index: " + std::to_string(index) + ".  ";
  };
  const std::string name_prefix = single ? "" : "Name: <unknown>, ";

  std::vector<Tensor> dense(nd);
  std::vector<Shape> shapes(nd);
  for (size_t j = 0; j < nd; ++j) {
    shapes[j] = *dense_shapes[j].to_shape();
    std::vector<int64_t> dims;
    if (!single) dims.push_back(batch);
    dims.insert(dims.end(), shapes[j].dims().begin(), shapes[j].dims().end());
    dense[j] = make_tensor(dense_types[j], Shape(dims));
  }
  std::vector<std::vector<std::pair<int64_t, FeatureValue>>> sparse(ns);

  for (int64_t b = 0; b < batch; ++b) {
    std::map<std::string, FeatureValue> feats;
    for (auto& [k, v] : parse_example_proto(examples[static_cast<size_t>(b)]))
      feats[k] = std::move(v);
    for (size_t j = 0; j < nd; ++j) {
      const int64_t per = shapes[j].num_elements();
      auto it = feats.find(dense_keys[j]);
      if (it == feats.end() || it->second.kind == Kind::kNone) {
        const Tensor& dflt = ctx.input(static_cast<int>(5 + j));
        if (dflt.eager_shape().num_elements() == 0) {
          invalid_argument(name_prefix + "Feature: " + dense_keys[j] + " (data type: " +
                           dtype_text(dense_types[j]) + ") is required but could not be found.");
        }
        if (dflt.dtype() != dense_types[j] || dflt.eager_shape().num_elements() != per) {
          invalid_argument("The default value for dense key " + dense_keys[j] + " has " +
                           std::to_string(dflt.eager_shape().num_elements()) + " " +
                           std::string(dtype_name(dflt.dtype())) + " values; its shape " +
                           shape_text(shapes[j]) + " needs " + std::to_string(per) + " " +
                           std::string(dtype_name(dense_types[j])) + " values");
        }
        FeatureValue d;
        d.kind = kind_of(dense_types[j]);
        if (d.kind == Kind::kBytes)
          d.bytes = dflt.string_values();
        else if (d.kind == Kind::kFloat)
          d.floats = dflt.to_vector<float>();
        else
          d.ints = dflt.to_vector<int64_t>();
        copy_values(d, dense[j], b * per);
        continue;
      }
      const FeatureValue& v = it->second;
      if (v.kind != kind_of(dense_types[j])) {
        invalid_argument(where(dense_keys[j], b) + "Data types don't match. Data type: " +
                         kind_type(v.kind) + " but expected type: " + dtype_text(dense_types[j]));
      }
      if (static_cast<int64_t>(count_of(v)) != per) {
        if (single) {
          invalid_argument(where(dense_keys[j], b) + "Can't parse serialized Example: Some " +
                           list_name(v.kind) + " slice was not parsed.");
        }
        invalid_argument(where(dense_keys[j], b) + "Number of " + value_name(v.kind) +
                         " values != expected.  Values size: " + std::to_string(count_of(v)) +
                         " but output shape: " + shape_text(shapes[j]));
      }
      copy_values(v, dense[j], b * per);
    }
    for (size_t j = 0; j < ns; ++j) {
      auto it = feats.find(sparse_keys[j]);
      if (it == feats.end() || it->second.kind == Kind::kNone) continue;
      if (it->second.kind != kind_of(sparse_types[j])) {
        invalid_argument(where(sparse_keys[j], b) +
                         "Data types don't match. Expected type: " + dtype_text(sparse_types[j]) +
                         ", Actual type: " + kind_type(it->second.kind));
      }
      sparse[j].emplace_back(b, std::move(it->second));
    }
  }

  // Outputs: sparse indices, values, shapes (num_sparse each), then dense values.
  for (size_t j = 0; j < ns; ++j) {
    int64_t total = 0, longest = 0;
    for (auto& [b, v] : sparse[j]) {
      total += static_cast<int64_t>(count_of(v));
      longest = std::max<int64_t>(longest, static_cast<int64_t>(count_of(v)));
    }
    const int64_t rank = single ? 1 : 2;
    Tensor indices = Tensor::zeros(DType::kInt64, Shape{total, rank});
    Tensor values = make_tensor(sparse_types[j], Shape{total});
    int64_t* idx = indices.data<int64_t>();
    int64_t at = 0;
    for (auto& [b, v] : sparse[j]) {
      const int64_t n = static_cast<int64_t>(count_of(v));
      copy_values(v, values, at);
      for (int64_t k = 0; k < n; ++k, ++at) {
        if (single) {
          idx[at] = k;
        } else {
          idx[2 * at] = b;
          idx[2 * at + 1] = k;
        }
      }
    }
    const int i = static_cast<int>(j);
    const int n = static_cast<int>(ns);
    ctx.set_output(i, std::move(indices));
    ctx.set_output(n + i, std::move(values));
    ctx.set_output(2 * n + i, single ? Tensor::from_vector<int64_t>({total})
                                     : Tensor::from_vector<int64_t>({batch, longest}));
  }
  for (size_t j = 0; j < nd; ++j) ctx.set_output(static_cast<int>(3 * ns + j), std::move(dense[j]));
}

}  // namespace

void detail::register_example_ops() {
  OpDef d;
  d.name = "ParseExampleV2";
  d.inputs = {
      {"serialized", "", DType::kString},  {"names", "", DType::kString},
      {"sparse_keys", "", DType::kString}, {"dense_keys", "", DType::kString},
      {"ragged_keys", "", DType::kString}, {"dense_defaults", "", DType::kInvalid, "", "Tdense"}};
  d.outputs = {{"sparse_indices", "", DType::kInt64, "num_sparse"},
               {"sparse_values", "", DType::kInvalid, "", "sparse_types"},
               {"sparse_shapes", "", DType::kInt64, "num_sparse"},
               {"dense_values", "", DType::kInvalid, "", "Tdense"},
               {"ragged_values", "", DType::kInvalid, "", "ragged_value_types"},
               {"ragged_row_splits", "", DType::kInvalid, "", "ragged_split_types"}};
  d.shape_fn = [](InferenceContext& c) {
    for (size_t i = 0; i < c.output_shapes.size(); ++i)
      c.set_output(static_cast<int>(i), PartialShape());
  };
  d.kernel = parse_kernel;
  OpRegistry::global().add(std::move(d));
}

ParsedExamples parse_examples(const Tensor& serialized, const std::vector<SparseFeature>& sparse,
                              const std::vector<DenseFeature>& dense) {
  detail::register_data_ops();
  if (sparse.empty() && dense.empty()) value_error("Invalid argument: features cannot be empty.");
  std::vector<std::string> skeys, dkeys;
  std::vector<DType> stypes, dtypes;
  std::vector<PartialShape> dshapes;
  std::vector<Tensor> inputs{serialized, Tensor::strings({}, Shape{0})};
  for (const auto& s : sparse) {
    skeys.push_back(s.key);
    stypes.push_back(s.dtype);
  }
  for (const auto& f : dense) {
    dkeys.push_back(f.key);
    dtypes.push_back(f.dtype);
    dshapes.emplace_back(f.shape);
  }
  inputs.push_back(Tensor::strings(skeys, Shape{static_cast<int64_t>(skeys.size())}));
  inputs.push_back(Tensor::strings(dkeys, Shape{static_cast<int64_t>(dkeys.size())}));
  inputs.push_back(Tensor::strings({}, Shape{0}));
  for (const auto& f : dense) {
    inputs.push_back(f.default_value.defined() ? f.default_value : make_tensor(f.dtype, Shape{0}));
  }
  AttrMap attrs{{"Tdense", dtypes},
                {"num_sparse", static_cast<int64_t>(sparse.size())},
                {"sparse_types", stypes},
                {"ragged_value_types", std::vector<DType>{}},
                {"ragged_split_types", std::vector<DType>{}},
                {"dense_shapes", dshapes}};
  for (DType t : stypes) kind_of(t);
  for (DType t : dtypes) kind_of(t);
  // TF's generated wrapper takes the keys as Python lists: its errors end at "[Op:...]".
  EagerErrorName fallback("");
  std::vector<Tensor> out = execute("ParseExampleV2", std::move(inputs), std::move(attrs));
  ParsedExamples r;
  const size_t ns = sparse.size();
  for (size_t j = 0; j < ns; ++j) r.sparse.push_back({out[j], out[ns + j], out[2 * ns + j]});
  for (size_t j = 0; j < dense.size(); ++j) r.dense.push_back(out[3 * ns + j]);
  return r;
}

}  // namespace tfs::data
