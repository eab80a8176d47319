// Batching: BatchDatasetV2 (batch), PaddedBatchDatasetV2 (padded_batch) and UnbatchDataset
// (unbatch), with TF's kernel texts for the elements that do not fit.
#include "dataset_impl.h"

namespace tfs::data {
namespace {

using detail::DatasetIterator;
using detail::dims_text;
using detail::make_iterator_of;

int64_t batched_cardinality(int64_t n, int64_t batch_size, bool drop_remainder) {
  if (n == kInfiniteCardinality || n == kUnknownCardinality) return n;
  return n / batch_size + (n % batch_size == 0 || drop_remainder ? 0 : 1);
}

// Up to `batch_size` elements of `input` (fewer at its end; none when it is done). Resets
// `input` once it ends, as TF's batching iterators do.
std::vector<Element> next_elements(std::unique_ptr<IteratorBase>& input, int64_t batch_size) {
  std::vector<Element> rows;
  if (!input) return rows;
  for (int64_t i = 0; i < batch_size; ++i) {
    Element e;
    if (!input->get_next(e)) {
      input.reset();
      break;
    }
    rows.push_back(std::move(e));
  }
  return rows;
}

class BatchDataset : public DatasetBase {
 public:
  BatchDataset(DatasetRef input, int64_t batch_size, bool drop_remainder,
               std::vector<PartialShape> shapes)
      : DatasetBase(input->output_dtypes(), std::move(shapes)),
        input_(std::move(input)),
        batch_size_(batch_size),
        drop_remainder_(drop_remainder) {}

  int64_t cardinality() const override {
    return batched_cardinality(input_->cardinality(), batch_size_, drop_remainder_);
  }
  std::string type() const override { return "Batch"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<BatchDataset> {
   public:
    Iter(std::shared_ptr<const BatchDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}

    bool get_next(Element& out) override {
      const BatchDataset& d = dataset();
      std::vector<Element> rows = next_elements(input_, d.batch_size_);
      if (rows.empty()) return false;
      if (d.drop_remainder_ && static_cast<int64_t>(rows.size()) < d.batch_size_) return false;
      const size_t components = d.output_dtypes().size();
      std::vector<const Tensor*> column(rows.size());
      for (size_t c = 0; c < components; ++c) {
        const Shape& first = rows[0][c].eager_shape();
        for (size_t i = 0; i < rows.size(); ++i) {
          if (rows[i][c].eager_shape() != first) {
            invalid_argument("Cannot batch tensors with different shapes in component " +
                             std::to_string(c) + ". First element had shape " + dims_text(first) +
                             " and element " + std::to_string(i) + " had shape " +
                             dims_text(rows[i][c].eager_shape()) + ".");
          }
          column[i] = &rows[i][c];
        }
        out.push_back(detail::stack_rows(column, d.output_dtypes()[c], first));
      }
      return true;
    }

   private:
    std::unique_ptr<IteratorBase> input_;
  };

  DatasetRef input_;
  int64_t batch_size_;
  bool drop_remainder_;
};

class PaddedBatchDataset : public DatasetBase {
 public:
  PaddedBatchDataset(DatasetRef input, int64_t batch_size, std::vector<PartialShape> padded_shapes,
                     std::vector<Tensor> padding_values, bool drop_remainder,
                     std::vector<PartialShape> shapes)
      : DatasetBase(input->output_dtypes(), std::move(shapes)),
        input_(std::move(input)),
        batch_size_(batch_size),
        padded_shapes_(std::move(padded_shapes)),
        padding_values_(std::move(padding_values)),
        drop_remainder_(drop_remainder) {}

  int64_t cardinality() const override {
    return batched_cardinality(input_->cardinality(), batch_size_, drop_remainder_);
  }
  std::string type() const override { return "PaddedBatch"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<PaddedBatchDataset> {
   public:
    Iter(std::shared_ptr<const PaddedBatchDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}

    bool get_next(Element& out) override {
      const PaddedBatchDataset& d = dataset();
      std::vector<Element> rows = next_elements(input_, d.batch_size_);
      if (rows.empty()) return false;
      if (d.drop_remainder_ && static_cast<int64_t>(rows.size()) < d.batch_size_) return false;
      for (size_t c = 0; c < d.output_dtypes().size(); ++c) out.push_back(pad_component(rows, c));
      return true;
    }

   private:
    Tensor pad_component(const std::vector<Element>& rows, size_t c) const {
      const PaddedBatchDataset& d = dataset();
      const PartialShape& padded = d.padded_shapes_[c];
      std::vector<int64_t> dims{static_cast<int64_t>(rows.size())};
      for (int k = 0; k < padded.rank(); ++k) dims.push_back(padded.dim(k) < 0 ? 0 : padded.dim(k));
      for (const Element& row : rows) {
        const Shape& s = row[c].eager_shape();
        if (s.rank() != padded.rank()) {
          invalid_argument(
              "All elements in a batch must have the same rank as the padded shape for "
              "component" +
              std::to_string(c) + ": expected rank " + std::to_string(padded.rank()) +
              " but got element with rank " + std::to_string(s.rank()));
        }
        for (int k = 0; k < s.rank(); ++k) {
          int64_t& dim = dims[static_cast<size_t>(k) + 1];
          if (padded.dim(k) < 0) {
            dim = std::max(dim, s.dim(k));
          } else if (s.dim(k) > dim) {
            throw Error(ErrorKind::kDataLoss,
                        "Attempted to pad to a smaller size than the input element.");
          }
        }
      }
      Tensor batch = detail::filled(Shape(dims), d.padding_values_[c]);
      for (size_t i = 0; i < rows.size(); ++i) {
        detail::copy_into_row_padded(batch, static_cast<int64_t>(i), rows[i][c]);
      }
      return batch;
    }

    std::unique_ptr<IteratorBase> input_;
  };

  DatasetRef input_;
  int64_t batch_size_;
  std::vector<PartialShape> padded_shapes_;
  std::vector<Tensor> padding_values_;
  bool drop_remainder_;
};

class UnbatchDataset : public DatasetBase {
 public:
  UnbatchDataset(DatasetRef input, std::vector<PartialShape> shapes)
      : DatasetBase(input->output_dtypes(), std::move(shapes)), input_(std::move(input)) {
    // The batch size, when every component's first dimension says the same.
    for (const PartialShape& s : input_->output_shapes()) {
      if (!s.has_rank() || s.rank() == 0 || s.dim(0) < 0 ||
          (known_batch_size_ >= 0 && s.dim(0) != known_batch_size_)) {
        known_batch_size_ = -1;
        break;
      }
      known_batch_size_ = s.dim(0);
    }
  }

  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (n == kInfiniteCardinality || n == kUnknownCardinality) return n;
    return known_batch_size_ >= 0 ? n * known_batch_size_ : kUnknownCardinality;
  }
  std::string type() const override { return "Unbatch"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<UnbatchDataset> {
   public:
    Iter(std::shared_ptr<const UnbatchDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}

    bool get_next(Element& out) override {
      while (true) {
        if (!input_) return false;
        if (row_ < rows_) {
          for (const Tensor& t : current_) out.push_back(detail::slice_row(t, row_));
          ++row_;
          return true;
        }
        current_.clear();
        if (!input_->get_next(current_)) {
          input_.reset();
          return false;
        }
        row_ = 0;
        rows_ = batch_size_of(current_);
      }
    }

   private:
    static int64_t batch_size_of(const Element& e) {
      int64_t n = -1;
      for (size_t c = 0; c < e.size(); ++c) {
        const Shape& s = e[c].eager_shape();
        if (s.rank() == 0) {
          invalid_argument("Input element must have a non-scalar value in each component.");
        }
        if (n < 0) {
          n = s.dim(0);
        } else if (s.dim(0) != n) {
          invalid_argument(
              "Input element must have the same batch size in each component. Component 0 had "
              "size " +
              std::to_string(n) + " but component " + std::to_string(c) + " had size, " +
              std::to_string(s.dim(0)) + ".");
        }
      }
      return n < 0 ? 0 : n;
    }

    std::unique_ptr<IteratorBase> input_;
    Element current_;
    int64_t row_ = 0, rows_ = 0;
  };

  DatasetRef input_;
  int64_t known_batch_size_ = -1;
};

int64_t batch_size_arg(const OpKernelContext& ctx) {
  const int64_t n = detail::scalar_int64(ctx, 1, "batch_size");
  if (n <= 0) invalid_argument("Batch size must be greater than zero.");
  return n;
}

}  // namespace

void detail::register_batch_datasets() {
  register_dataset_op("BatchDatasetV2",
                      {{"input_dataset", "", DType::kVariant},
                       {"batch_size", "", DType::kInt64},
                       {"drop_remainder", "", DType::kBool}},
                      [](OpKernelContext& ctx) -> DatasetRef {
                        const int64_t batch_size = batch_size_arg(ctx);
                        return std::make_shared<BatchDataset>(input_dataset(ctx, 0), batch_size,
                                                              scalar_bool(ctx, 2, "drop_remainder"),
                                                              output_shapes(ctx));
                      });
  register_dataset_op(
      "PaddedBatchDatasetV2",
      {{"input_dataset", "", DType::kVariant},
       {"batch_size", "", DType::kInt64},
       {"padded_shapes", "", DType::kInt64, "N"},
       {"padding_values", "", DType::kInvalid, "", "Toutput_types"},
       {"drop_remainder", "", DType::kBool}},
      [](OpKernelContext& ctx) -> DatasetRef {
        const int64_t batch_size = batch_size_arg(ctx);
        const int64_t n = attr_int(*ctx.attrs, "N");
        std::vector<PartialShape> padded;
        std::vector<Tensor> values;
        for (int64_t i = 0; i < n; ++i) {
          const Tensor& s = ctx.input(static_cast<int>(2 + i));
          if (s.eager_shape().rank() != 1) {
            invalid_argument("All padded shapes must be vectors, but component " +
                             std::to_string(i) + " has shape " + dims_text(s.eager_shape()) + ".");
          }
          padded.emplace_back(s.to_vector<int64_t>());
          const Tensor& v = ctx.input(static_cast<int>(2 + n + i));
          if (v.eager_shape().rank() != 0) {
            invalid_argument("All padding values must be scalars, but component " +
                             std::to_string(i) + " has shape " + dims_text(v.eager_shape()) + ".");
          }
          values.push_back(v);
        }
        const bool drop = scalar_bool(ctx, static_cast<int>(2 + 2 * n), "drop_remainder");
        return std::make_shared<PaddedBatchDataset>(input_dataset(ctx, 0), batch_size,
                                                    std::move(padded), std::move(values), drop,
                                                    output_shapes(ctx));
      });
  register_dataset_op("UnbatchDataset", {{"input_dataset", "", DType::kVariant}},
                      [](OpKernelContext& ctx) -> DatasetRef {
                        return std::make_shared<UnbatchDataset>(input_dataset(ctx, 0),
                                                                output_shapes(ctx));
                      });
}

}  // namespace tfs::data
