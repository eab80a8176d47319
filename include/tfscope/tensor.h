// Tensor: one handle type for eager values (which own a buffer) and symbolic values (an output of
// a node in a graph being built). Copying a Tensor copies the handle, never the data.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tfscope/dtype.h"
#include "tfscope/errors.h"
#include "tfscope/shape.h"

namespace tfs {

class Graph;
class Node;

// Something a resource tensor points at (a variable's state), or the value a variant tensor holds
// (a TensorList).
class ResourceBase {
 public:
  virtual ~ResourceBase() = default;
  virtual std::string debug_name() const = 0;
};

namespace detail {

// 64-byte aligned storage for numeric and bool elements.
struct Buffer {
  explicit Buffer(size_t bytes);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* data = nullptr;
  size_t bytes = 0;
};

struct TensorImpl {
  DType dtype = DType::kInvalid;
  PartialShape shape;  // fully defined for eager tensors
  // Eager payload: exactly one of these is set, by dtype.
  std::shared_ptr<Buffer> buffer;
  std::shared_ptr<std::vector<std::string>> strings;
  std::shared_ptr<ResourceBase> resource;
  std::shared_ptr<const ResourceBase> variant;
  Shape eager_shape;
  // Symbolic payload.
  std::shared_ptr<Graph> graph;
  Node* node = nullptr;
  int index = 0;
  std::string node_name;
};

}  // namespace detail

class Tensor {
 public:
  Tensor() = default;

  // Eager constructors.
  static Tensor empty(DType dtype, Shape shape);  // uninitialised numeric buffer
  static Tensor zeros(DType dtype, const Shape& shape);
  template <typename T>
  static Tensor from_vector(const std::vector<T>& values, const Shape& shape);
  template <typename T>
  static Tensor from_vector(const std::vector<T>& values) {
    return from_vector(values, Shape{static_cast<int64_t>(values.size())});
  }
  static Tensor from_bools(const std::vector<bool>& values, const Shape& shape);
  template <typename T>
  static Tensor scalar(T value) {
    return from_vector(std::vector<T>{value}, Shape{});
  }
  static Tensor strings(std::vector<std::string> values, const Shape& shape);
  static Tensor string_scalar(std::string value);
  static Tensor resource(std::shared_ptr<ResourceBase> res);
  // A scalar variant tensor holding `value` (never mutated once wrapped: variants are values).
  static Tensor variant(std::shared_ptr<const ResourceBase> value);
  // A symbolic tensor: output `index` of `node` in `graph`.
  static Tensor symbolic(std::shared_ptr<Graph> graph, Node* node, int index, DType dtype,
                         PartialShape shape, std::string node_name);

  bool defined() const { return impl_ != nullptr; }
  bool is_symbolic() const { return impl_ && impl_->node != nullptr; }
  bool is_eager() const { return impl_ && impl_->node == nullptr; }

  DType dtype() const { return impl_->dtype; }
  const PartialShape& shape() const { return impl_->shape; }
  // Eager only.
  const Shape& eager_shape() const { return impl_->eager_shape; }
  int64_t num_elements() const { return impl_->eager_shape.num_elements(); }
  size_t nbytes() const { return impl_->buffer ? impl_->buffer->bytes : 0; }

  template <typename T>
  T* data() {
    check_access(dtype_v<T>);
    return static_cast<T*>(impl_->buffer->data);
  }
  template <typename T>
  const T* data() const {
    check_access(dtype_v<T>);
    return static_cast<const T*>(impl_->buffer->data);
  }
  const void* raw_data() const { return impl_->buffer ? impl_->buffer->data : nullptr; }
  void* raw_data() { return impl_->buffer ? impl_->buffer->data : nullptr; }
  template <typename T>
  std::vector<T> to_vector() const {
    const T* p = data<T>();
    return std::vector<T>(p, p + num_elements());
  }
  template <typename T>
  T item() const;  // scalar (or 1-element) value, converted to T
  const std::vector<std::string>& string_values() const;
  std::vector<std::string>& mutable_string_values();
  const std::shared_ptr<ResourceBase>& resource_handle() const { return impl_->resource; }
  // The value of an eager variant tensor; null for other tensors.
  const std::shared_ptr<const ResourceBase>& variant_value() const { return impl_->variant; }

  // Symbolic only.
  Node* node() const { return impl_->node; }
  int index() const { return impl_->index; }
  const std::shared_ptr<Graph>& graph() const { return impl_->graph; }
  std::string name() const;  // "x:0"

  // Eager: `tf.Tensor([1 2], shape=(2,), dtype=int32)`;
  // symbolic: `Tensor("x:0", shape=(2,), dtype=int32)`.
  std::string str() const;
  // Eager: `<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>`;
  // symbolic: `<tf.Tensor 'x:0' shape=(2,) dtype=int32>`.
  std::string repr() const;
  // numpy's str() of the value: `[1 2]`, `[1.5 2. ]`.
  std::string numpy_str() const;

  // Python truthiness: eager scalars only; a symbolic tensor raises
  // OperatorNotAllowedInGraphError with TF's text.
  explicit operator bool() const;

  // Identity of the handle (what TF keys captures on).
  const void* id() const { return impl_.get(); }
  const std::shared_ptr<detail::TensorImpl>& impl() const { return impl_; }

  // A deep copy of an eager tensor's buffer.
  Tensor clone() const;
  // The same eager buffer seen with another shape of the same element count (no copy).
  Tensor reshaped(const Shape& shape) const;

 private:
  void check_access(DType want) const;
  std::shared_ptr<detail::TensorImpl> impl_;
};

template <typename T>
Tensor Tensor::from_vector(const std::vector<T>& values, const Shape& shape) {
  Tensor t = empty(dtype_v<T>, shape);
  if (static_cast<int64_t>(values.size()) != shape.num_elements()) {
    value_error("[core] from_vector: " + std::to_string(values.size()) +
                " values do not fill shape " + shape.str());
  }
  if (!values.empty()) std::memcpy(t.raw_data(), values.data(), values.size() * sizeof(T));
  return t;
}

template <typename T>
T Tensor::item() const {
  if (num_elements() != 1) {
    value_error("[core] item(): tensor with shape " + eager_shape().str() + " is not a scalar");
  }
  return visit_dtype(dtype(), [&](auto tag) -> T {
    using S = decltype(tag);
    return static_cast<T>(static_cast<const S*>(impl_->buffer->data)[0]);
  });
}

// TensorSpec: the TraceType of a tensor; also what input signatures are made of.
struct TensorSpec {
  PartialShape shape;
  DType dtype = DType::kFloat32;
  std::string name;  // empty = None
  bool has_name = false;

  TensorSpec() = default;
  TensorSpec(PartialShape s, DType d) : shape(std::move(s)), dtype(d) {}
  TensorSpec(PartialShape s, DType d, std::string n)
      : shape(std::move(s)), dtype(d), name(std::move(n)), has_name(true) {}
  static TensorSpec from_tensor(const Tensor& t) { return TensorSpec(t.shape(), t.dtype()); }

  // `TensorSpec(shape=(None,), dtype=tf.int32, name=None)`
  std::string repr() const;
  bool is_subtype_of(const TensorSpec& other) const;
  bool is_compatible_with(const Tensor& t) const;
  friend bool operator==(const TensorSpec& a, const TensorSpec& b) {
    return a.shape == b.shape && a.dtype == b.dtype && a.has_name == b.has_name && a.name == b.name;
  }
};

}  // namespace tfs
