// Datasets made from values: TensorSliceDataset (from_tensor_slices), TensorDataset
// (from_tensors), RangeDataset (range), ZipDataset (zip), and a source of elements made by the
// front end (from_generator: Python's generator, run from the Python side).
#include "dataset_impl.h"

namespace tfs::data {
namespace {

using detail::DatasetIterator;
using detail::make_iterator_of;

class TensorSliceDataset : public DatasetBase {
 public:
  TensorSliceDataset(std::vector<Tensor> components, std::vector<PartialShape> shapes)
      : DatasetBase(dtypes_of(components), std::move(shapes)), components_(std::move(components)) {}

  int64_t cardinality() const override { return components_[0].eager_shape().dim(0); }
  std::string type() const override { return "TensorSlice"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  static std::vector<DType> dtypes_of(const std::vector<Tensor>& c) {
    std::vector<DType> d;
    for (const auto& t : c) d.push_back(t.dtype());
    return d;
  }

  class Iter : public DatasetIterator<TensorSliceDataset> {
   public:
    using DatasetIterator::DatasetIterator;
    bool get_next(Element& out) override {
      if (next_ >= dataset().cardinality()) return false;
      for (const Tensor& c : dataset().components_) out.push_back(detail::slice_row(c, next_));
      ++next_;
      return true;
    }

   private:
    int64_t next_ = 0;
  };

  std::vector<Tensor> components_;
};

class TensorDataset : public DatasetBase {
 public:
  TensorDataset(std::vector<Tensor> components, std::vector<DType> dtypes,
                std::vector<PartialShape> shapes)
      : DatasetBase(std::move(dtypes), std::move(shapes)), components_(std::move(components)) {}

  int64_t cardinality() const override { return 1; }
  std::string type() const override { return "Tensor"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<TensorDataset> {
   public:
    using DatasetIterator::DatasetIterator;
    bool get_next(Element& out) override {
      if (done_) return false;
      out = dataset().components_;
      done_ = true;
      return true;
    }

   private:
    bool done_ = false;
  };

  std::vector<Tensor> components_;
};

class RangeDataset : public DatasetBase {
 public:
  RangeDataset(int64_t start, int64_t stop, int64_t step, DType dtype)
      : DatasetBase({dtype}, {PartialShape(Shape{})}), start_(start), stop_(stop), step_(step) {}

  int64_t cardinality() const override {
    if (step_ > 0) return std::max<int64_t>(0, (stop_ - start_ - 1) / step_ + 1);
    return std::max<int64_t>(0, (start_ - stop_ - 1) / -step_ + 1);
  }
  std::string type() const override { return "Range"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<RangeDataset> {
   public:
    Iter(std::shared_ptr<const RangeDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), next_(dataset().start_) {}
    bool get_next(Element& out) override {
      const RangeDataset& d = dataset();
      if ((d.step_ > 0 && next_ >= d.stop_) || (d.step_ < 0 && next_ <= d.stop_)) return false;
      Tensor t = Tensor::empty(d.output_dtypes()[0], Shape{});
      visit_dtype(t.dtype(), [&](auto tag) {
        using T = decltype(tag);
        t.data<T>()[0] = static_cast<T>(next_);
      });
      out.push_back(std::move(t));
      next_ += d.step_;
      return true;
    }

   private:
    int64_t next_;
  };

  int64_t start_, stop_, step_;
};

std::vector<DType> concat_dtypes(const std::vector<DatasetRef>& inputs) {
  std::vector<DType> d;
  for (const auto& in : inputs)
    d.insert(d.end(), in->output_dtypes().begin(), in->output_dtypes().end());
  return d;
}

std::vector<PartialShape> concat_shapes(const std::vector<DatasetRef>& inputs) {
  std::vector<PartialShape> s;
  for (const auto& in : inputs)
    s.insert(s.end(), in->output_shapes().begin(), in->output_shapes().end());
  return s;
}

class ZipDataset : public DatasetBase {
 public:
  explicit ZipDataset(std::vector<DatasetRef> inputs)
      : DatasetBase(concat_dtypes(inputs), concat_shapes(inputs)), inputs_(std::move(inputs)) {}

  int64_t cardinality() const override {
    int64_t result = kInfiniteCardinality;
    for (const auto& in : inputs_) {
      const int64_t n = in->cardinality();
      if (n == kUnknownCardinality) return kUnknownCardinality;
      if (n != kInfiniteCardinality && (result == kInfiniteCardinality || n < result)) result = n;
    }
    return result;
  }
  std::string type() const override { return "Zip"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<ZipDataset> {
   public:
    Iter(std::shared_ptr<const ZipDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx) {
      for (const auto& in : dataset().inputs_) inputs_.push_back(iterate(*in));
    }
    // The first input to end ends the zip; the inputs after it are not asked (TF's order).
    bool get_next(Element& out) override {
      if (inputs_.empty()) return false;
      Element part;
      for (auto& in : inputs_) {
        part.clear();
        if (!in->get_next(part)) {
          inputs_.clear();
          out.clear();
          return false;
        }
        out.insert(out.end(), part.begin(), part.end());
      }
      return true;
    }

   private:
    std::vector<std::unique_ptr<IteratorBase>> inputs_;
  };

  std::vector<DatasetRef> inputs_;
};

class SourceDataset : public DatasetBase {
 public:
  SourceDataset(std::function<std::unique_ptr<IteratorBase>()> make, std::vector<DType> dtypes,
                std::vector<PartialShape> shapes)
      : DatasetBase(std::move(dtypes), std::move(shapes)), make_(std::move(make)) {}

  int64_t cardinality() const override { return kUnknownCardinality; }
  std::string type() const override { return "Generator"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext&) const override {
    return make_();
  }

 private:
  std::function<std::unique_ptr<IteratorBase>()> make_;
};

}  // namespace

void detail::register_source_datasets() {
  using detail::output_shapes;
  using detail::output_types;
  detail::register_dataset_op(
      "TensorSliceDataset", {{"components", "", DType::kInvalid, "", "Toutput_types"}},
      [](OpKernelContext& ctx) -> DatasetRef {
        std::vector<Tensor> components(ctx.inputs.begin(), ctx.inputs.end());
        for (const auto& c : components) {
          if (c.eager_shape().rank() == 0) {
            invalid_argument("All components must be at least 1-dimensional");
          }
          if (c.eager_shape().dim(0) != components[0].eager_shape().dim(0)) {
            invalid_argument("All components must have the same size in the 0th dimension");
          }
        }
        return std::make_shared<TensorSliceDataset>(std::move(components), output_shapes(ctx));
      });
  detail::register_dataset_op(
      "TensorDataset", {{"components", "", DType::kInvalid, "", "Toutput_types"}},
      [](OpKernelContext& ctx) -> DatasetRef {
        std::vector<Tensor> components(ctx.inputs.begin(), ctx.inputs.end());
        return std::make_shared<TensorDataset>(
            std::move(components), output_types(ctx, "Toutput_types"), output_shapes(ctx));
      });
  detail::register_dataset_op(
      "RangeDataset",
      {{"start", "", DType::kInt64}, {"stop", "", DType::kInt64}, {"step", "", DType::kInt64}},
      [](OpKernelContext& ctx) -> DatasetRef {
        const int64_t start = detail::scalar_int64(ctx, 0, "start");
        const int64_t stop = detail::scalar_int64(ctx, 1, "stop");
        const int64_t step = detail::scalar_int64(ctx, 2, "step");
        if (step == 0) invalid_argument("step must be a non-zero integer.");
        return std::make_shared<RangeDataset>(start, stop, step, output_types(ctx)[0]);
      });
  detail::register_dataset_op("ZipDataset", {{"input_datasets", "", DType::kVariant, "N"}},
                              [](OpKernelContext& ctx) -> DatasetRef {
                                std::vector<DatasetRef> inputs;
                                for (int i = 0; i < ctx.num_inputs(); ++i)
                                  inputs.push_back(detail::input_dataset(ctx, i));
                                return std::make_shared<ZipDataset>(std::move(inputs));
                              });
}

DatasetRef detail::make_source_dataset(std::function<std::unique_ptr<IteratorBase>()> make,
                                       const std::vector<TensorSpec>& specs) {
  std::vector<DType> dtypes;
  std::vector<PartialShape> shapes;
  for (const auto& s : specs) {
    dtypes.push_back(s.dtype);
    shapes.push_back(s.shape);
  }
  return std::make_shared<SourceDataset>(std::move(make), std::move(dtypes), std::move(shapes));
}

}  // namespace tfs::data
