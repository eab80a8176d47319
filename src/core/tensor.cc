#include "tfscope/tensor.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "tfscope/format.h"

namespace tfs {
namespace detail {

// 64-byte aligned storage from malloc: glibc's aligned_alloc costs several times a malloc for the
// small tensors a call makes. The block malloc returned is kept in the word before `data`.
Buffer::Buffer(size_t n) : bytes(n) {
  constexpr size_t kAlign = 64;
  if (n > SIZE_MAX - 2 * kAlign) throw std::bad_alloc();
  size_t rounded = ((n + kAlign - 1) / kAlign) * kAlign;
  void* block = std::malloc((rounded == 0 ? kAlign : rounded) + kAlign);
  if (!block) throw std::bad_alloc();
  uintptr_t p = (reinterpret_cast<uintptr_t>(block) + sizeof(void*) + kAlign - 1) & ~(kAlign - 1);
  data = reinterpret_cast<void*>(p);
  reinterpret_cast<void**>(data)[-1] = block;
}

Buffer::~Buffer() {
  if (data) std::free(reinterpret_cast<void**>(data)[-1]);
}

}  // namespace detail

Tensor Tensor::empty(DType dtype, Shape shape) {
  Tensor t;
  t.impl_ = std::make_shared<detail::TensorImpl>();
  t.impl_->dtype = dtype;
  t.impl_->shape = shape;
  t.impl_->eager_shape = std::move(shape);
  // A size that overflows cannot be allocated; never hand out a short buffer for it.
  size_t count = 1, bytes = dtype_size(dtype);
  for (int64_t d : t.impl_->eager_shape.dims()) {
    if (d < 0 || __builtin_mul_overflow(count, static_cast<size_t>(d), &count) ||
        __builtin_mul_overflow(bytes, static_cast<size_t>(d), &bytes))
      throw std::bad_alloc();
  }
  if (dtype == DType::kString) {
    if (count > std::vector<std::string>().max_size()) throw std::bad_alloc();
    t.impl_->strings = std::make_shared<std::vector<std::string>>(count);
  } else if (dtype != DType::kResource && dtype != DType::kVariant) {
    t.impl_->buffer = std::make_shared<detail::Buffer>(bytes);
  }
  return t;
}

Tensor Tensor::zeros(DType dtype, const Shape& shape) {
  Tensor t = empty(dtype, shape);
  if (t.impl_->buffer) std::memset(t.impl_->buffer->data, 0, t.impl_->buffer->bytes);
  return t;
}

Tensor Tensor::from_bools(const std::vector<bool>& values, const Shape& shape) {
  Tensor t = empty(DType::kBool, shape);
  if (static_cast<int64_t>(values.size()) != shape.num_elements()) {
    value_error("[core] from_bools: value count does not fill shape " + shape.str());
  }
  bool* p = t.data<bool>();
  for (size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  return t;
}

Tensor Tensor::strings(std::vector<std::string> values, const Shape& shape) {
  if (static_cast<int64_t>(values.size()) != shape.num_elements()) {
    value_error("[core] strings: value count does not fill shape " + shape.str());
  }
  Tensor t;
  t.impl_ = std::make_shared<detail::TensorImpl>();
  t.impl_->dtype = DType::kString;
  t.impl_->shape = shape;
  t.impl_->eager_shape = shape;
  t.impl_->strings = std::make_shared<std::vector<std::string>>(std::move(values));
  return t;
}

Tensor Tensor::string_scalar(std::string value) {
  return strings({std::move(value)}, Shape{});
}

Tensor Tensor::resource(std::shared_ptr<ResourceBase> res) {
  Tensor t;
  t.impl_ = std::make_shared<detail::TensorImpl>();
  t.impl_->dtype = DType::kResource;
  t.impl_->shape = Shape{};
  t.impl_->eager_shape = Shape{};
  t.impl_->resource = std::move(res);
  return t;
}

Tensor Tensor::variant(std::shared_ptr<const ResourceBase> value) {
  Tensor t;
  t.impl_ = std::make_shared<detail::TensorImpl>();
  t.impl_->dtype = DType::kVariant;
  t.impl_->shape = Shape{};
  t.impl_->eager_shape = Shape{};
  t.impl_->variant = std::move(value);
  return t;
}

Tensor Tensor::symbolic(std::shared_ptr<Graph> graph, Node* node, int index, DType dtype,
                        PartialShape shape, std::string node_name) {
  Tensor t;
  t.impl_ = std::make_shared<detail::TensorImpl>();
  t.impl_->dtype = dtype;
  t.impl_->shape = std::move(shape);
  t.impl_->graph = std::move(graph);
  t.impl_->node = node;
  t.impl_->index = index;
  t.impl_->node_name = std::move(node_name);
  return t;
}

std::string Tensor::name() const {
  return impl_->node_name + ":" + std::to_string(impl_->index);
}

const std::vector<std::string>& Tensor::string_values() const {
  if (!impl_ || !impl_->strings) invalid_argument("[core] not an eager string tensor");
  return *impl_->strings;
}

std::vector<std::string>& Tensor::mutable_string_values() {
  if (!impl_ || !impl_->strings) invalid_argument("[core] not an eager string tensor");
  return *impl_->strings;
}

void Tensor::check_access(DType want) const {
  if (!impl_) invalid_argument("[core] access to an undefined tensor");
  if (impl_->node) invalid_argument("[core] cannot read the value of symbolic tensor " + name());
  if (impl_->dtype != want) {
    invalid_argument("[core] tensor of dtype " + std::string(dtype_name(impl_->dtype)) +
                     " read as " + std::string(dtype_name(want)));
  }
}

Tensor Tensor::clone() const {
  if (!is_eager()) invalid_argument("[core] clone of a symbolic tensor");
  if (impl_->strings) return strings(*impl_->strings, impl_->eager_shape);
  if (impl_->dtype == DType::kResource) return resource(impl_->resource);
  if (impl_->dtype == DType::kVariant) return variant(impl_->variant);
  Tensor t = empty(impl_->dtype, impl_->eager_shape);
  if (impl_->buffer->bytes) std::memcpy(t.raw_data(), impl_->buffer->data, impl_->buffer->bytes);
  return t;
}

Tensor Tensor::reshaped(const Shape& shape) const {
  if (!is_eager()) invalid_argument("[core] reshaped() of a symbolic tensor");
  if (shape.num_elements() != num_elements()) {
    invalid_argument("[core] reshaped(): " + shape.str() + " does not hold " +
                     std::to_string(num_elements()) + " elements");
  }
  Tensor t;
  t.impl_ = std::make_shared<detail::TensorImpl>(*impl_);
  t.impl_->shape = shape;
  t.impl_->eager_shape = shape;
  return t;
}

Tensor::operator bool() const {
  if (is_symbolic()) {
    throw Error(
        ErrorKind::kOperatorNotAllowedInGraph,
        "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the "
        "following resolutions to the problem: If you are running in Graph mode, use Eager "
        "execution mode or decorate this function with @tf.function. If you are using AutoGraph, "
        "you can try decorating this function with @tf.function. If that does not work, then you "
        "may be using an unsupported feature or your source code may not be visible to AutoGraph. "
        "See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/"
        "g3doc/reference/limitations.md#access-to-source-code for more information.");
  }
  if (num_elements() != 1) {
    value_error(
        "The truth value of an array with more than one element is ambiguous. Use a.any() or "
        "a.all()");
  }
  if (dtype() == DType::kString) return !string_values()[0].empty();
  return item<double>() != 0.0;
}

std::string Tensor::str() const {
  if (!impl_) return "<undefined tensor>";
  if (is_symbolic()) {
    return "Tensor(\"" + name() + "\", shape=" + shape().str() +
           ", dtype=" + std::string(dtype_name(dtype())) + ")";
  }
  if (dtype() == DType::kVariant) {
    // TF prints the variant's type name: tf.Tensor(<TensorList>, shape=(), dtype=variant).
    return "tf.Tensor(<" + (impl_->variant ? impl_->variant->debug_name() : std::string("?")) +
           ">, shape=" + eager_shape().str() + ", dtype=variant)";
  }
  std::string body = numpy_str();
  if (body.find('\n') != std::string::npos) body = "\n" + body;  // TF: only multi-line text
  return "tf.Tensor(" + body + ", shape=" + eager_shape().str() +
         ", dtype=" + std::string(dtype_name(dtype())) + ")";
}

std::string Tensor::repr() const {
  if (!impl_) return "<undefined tensor>";
  if (is_symbolic()) {
    return "<tf.Tensor '" + name() + "' shape=" + shape().str() +
           " dtype=" + std::string(dtype_name(dtype())) + ">";
  }
  if (dtype() == DType::kVariant) {
    return "<tf.Tensor: shape=" + eager_shape().str() + ", dtype=variant, value=<" +
           (impl_->variant ? impl_->variant->debug_name() : std::string("?")) + ">>";
  }
  std::string np = format_numpy_repr(*this);
  // TF's numpy_text: a newline first only when numpy's repr spans several lines.
  if (np.find('\n') != std::string::npos) np = "\n" + np;
  return "<tf.Tensor: shape=" + eager_shape().str() +
         ", dtype=" + std::string(dtype_name(dtype())) + ", numpy=" + np + ">";
}

std::string Tensor::numpy_str() const {
  return format_numpy_str(*this);
}

std::string TensorSpec::repr() const {
  std::string n = has_name ? "'" + name + "'" : "None";
  return "TensorSpec(shape=" + shape.str() + ", dtype=" + dtype_repr(dtype) + ", name=" + n + ")";
}

bool TensorSpec::is_subtype_of(const TensorSpec& other) const {
  if (has_name && (!other.has_name || name != other.name)) return false;
  return dtype == other.dtype && shape.is_subtype_of(other.shape);
}

bool TensorSpec::is_compatible_with(const Tensor& t) const {
  return t.dtype() == dtype && shape.is_compatible_with(t.shape());
}

}  // namespace tfs
