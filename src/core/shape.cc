#include "tfscope/shape.h"

#include <algorithm>

namespace tfs {

int64_t Shape::num_elements() const {
  int64_t n = 1;
  for (int64_t d : dims_) n *= d;
  return n;
}

static std::string dims_str(const std::vector<int64_t>& dims) {
  // TF prints a TensorShape as a Python tuple: (), (2,), (2, 3), with None for unknown dims.
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += dims[i] < 0 ? "None" : std::to_string(dims[i]);
  }
  if (dims.size() == 1) s += ",";
  return s + ")";
}

std::string Shape::str() const { return dims_str(dims_); }

bool PartialShape::is_fully_defined() const {
  if (!dims_) return false;
  return std::all_of(dims_->begin(), dims_->end(), [](int64_t d) { return d >= 0; });
}

std::optional<Shape> PartialShape::to_shape() const {
  if (!is_fully_defined()) return std::nullopt;
  return Shape(*dims_);
}

int64_t PartialShape::num_elements() const {
  if (!is_fully_defined()) return -1;
  int64_t n = 1;
  for (int64_t d : *dims_) n *= d;
  return n;
}

bool PartialShape::is_subtype_of(const PartialShape& other) const {
  if (!other.dims_) return true;
  if (!dims_ || dims_->size() != other.dims_->size()) return false;
  for (size_t i = 0; i < dims_->size(); ++i) {
    int64_t o = (*other.dims_)[i];
    if (o >= 0 && (*dims_)[i] != o) return false;
  }
  return true;
}

PartialShape PartialShape::most_specific_common_supertype(const PartialShape& other) const {
  if (!dims_ || !other.dims_ || dims_->size() != other.dims_->size()) return PartialShape();
  std::vector<int64_t> out(dims_->size());
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = (*dims_)[i] == (*other.dims_)[i] ? (*dims_)[i] : kUnknown;
  }
  return PartialShape(std::move(out));
}

bool PartialShape::is_compatible_with(const PartialShape& other) const {
  return merge_with(other).has_value();
}

std::optional<PartialShape> PartialShape::merge_with(const PartialShape& other) const {
  if (!dims_) return other;
  if (!other.dims_) return *this;
  if (dims_->size() != other.dims_->size()) return std::nullopt;
  std::vector<int64_t> out(dims_->size());
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t a = (*dims_)[i], b = (*other.dims_)[i];
    if (a >= 0 && b >= 0 && a != b) return std::nullopt;
    out[i] = a >= 0 ? a : b;
  }
  return PartialShape(std::move(out));
}

std::string PartialShape::str() const { return dims_ ? dims_str(*dims_) : "<unknown>"; }

std::string PartialShape::as_list_str() const {
  if (!dims_) return "None";
  std::string s = "[";
  for (size_t i = 0; i < dims_->size(); ++i) {
    if (i) s += ", ";
    s += (*dims_)[i] < 0 ? "None" : std::to_string((*dims_)[i]);
  }
  return s + "]";
}

std::optional<Shape> broadcast_shapes(const Shape& a, const Shape& b) {
  auto r = broadcast_shapes(PartialShape(a), PartialShape(b));
  if (!r) return std::nullopt;
  return r->to_shape();
}

std::optional<PartialShape> broadcast_shapes(const PartialShape& a, const PartialShape& b) {
  if (!a.has_rank() || !b.has_rank()) return PartialShape();
  int ra = a.rank(), rb = b.rank(), r = std::max(ra, rb);
  std::vector<int64_t> out(static_cast<size_t>(r));
  for (int i = 0; i < r; ++i) {
    int ia = ra - r + i, ib = rb - r + i;
    int64_t da = ia >= 0 ? a.dim(ia) : 1, db = ib >= 0 ? b.dim(ib) : 1;
    int64_t d;
    if (da == 1) {
      d = db;
    } else if (db == 1) {
      d = da;
    } else if (da < 0 && db < 0) {
      d = PartialShape::kUnknown;
    } else if (da < 0) {
      d = db;  // the unknown side must be db or 1; TF keeps the known dim
    } else if (db < 0) {
      d = da;
    } else if (da == db) {
      d = da;
    } else {
      return std::nullopt;
    }
    out[static_cast<size_t>(i)] = d;
  }
  return PartialShape(std::move(out));
}

}  // namespace tfs
