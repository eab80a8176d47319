// Shape (fully known) and PartialShape (unknown dims, unknown rank), printed as TF prints
// TensorShape: "(2,)", "(None, 3)", "()", "<unknown>".
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace tfs {

class Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}

  int rank() const { return static_cast<int>(dims_.size()); }
  int64_t dim(int i) const { return dims_[static_cast<size_t>(i)]; }
  int64_t operator[](int i) const { return dim(i); }
  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t num_elements() const;
  std::string str() const;

  friend bool operator==(const Shape&, const Shape&) = default;

 private:
  std::vector<int64_t> dims_;
};

class PartialShape {
 public:
  static constexpr int64_t kUnknown = -1;

  PartialShape() = default;  // unknown rank
  PartialShape(std::initializer_list<int64_t> dims) : dims_(std::vector<int64_t>(dims)) {}
  explicit PartialShape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
  PartialShape(const Shape& s) : dims_(s.dims()) {}  // NOLINT: a Shape is a PartialShape
  static PartialShape unknown() { return PartialShape(); }
  static PartialShape unknown_of_rank(int rank) {
    return PartialShape(std::vector<int64_t>(static_cast<size_t>(rank), kUnknown));
  }

  bool has_rank() const { return dims_.has_value(); }
  int rank() const { return dims_ ? static_cast<int>(dims_->size()) : -1; }
  int64_t dim(int i) const { return (*dims_)[static_cast<size_t>(i)]; }
  const std::vector<int64_t>& dims() const { return *dims_; }
  bool is_fully_defined() const;
  std::optional<Shape> to_shape() const;  // nullopt unless fully defined
  int64_t num_elements() const;           // -1 unless fully defined

  // TF's TraceType relations on TensorShape.
  bool is_subtype_of(const PartialShape& other) const;
  PartialShape most_specific_common_supertype(const PartialShape& other) const;
  bool is_compatible_with(const PartialShape& other) const;
  // Merge two compatible shapes (the more specific dim wins); nullopt if incompatible.
  std::optional<PartialShape> merge_with(const PartialShape& other) const;

  std::string str() const;                 // "(2, None)", "<unknown>"
  std::string as_list_str() const;         // "[2, None]", as TensorShape.as_list() prints

  friend bool operator==(const PartialShape&, const PartialShape&) = default;

 private:
  std::optional<std::vector<int64_t>> dims_;
};

// Broadcast two shapes as NumPy/TF do; nullopt if incompatible.
std::optional<Shape> broadcast_shapes(const Shape& a, const Shape& b);
std::optional<PartialShape> broadcast_shapes(const PartialShape& a, const PartialShape& b);

}  // namespace tfs
