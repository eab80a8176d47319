// Datasets that pass elements through: RepeatDataset, TakeDataset, SkipDataset,
// PrefetchDataset, CacheDatasetV2 (in memory), OptionsDataset and RewriteDataset.
#include <mutex>

#include "dataset_impl.h"

namespace tfs::data {
namespace {

using detail::DatasetIterator;
using detail::make_iterator_of;

class EmptyIterator : public IteratorBase {
 public:
  bool get_next(Element&) override { return false; }
};

// A dataset with one input and its element specs.
class UnaryDataset : public DatasetBase {
 public:
  explicit UnaryDataset(DatasetRef input)
      : DatasetBase(input->output_dtypes(), input->output_shapes()), input_(std::move(input)) {}

 protected:
  DatasetRef input_;
};

class RepeatDataset : public UnaryDataset {
 public:
  RepeatDataset(DatasetRef input, int64_t count) : UnaryDataset(std::move(input)), count_(count) {}

  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (count_ < 0) return n == 0 ? 0 : kInfiniteCardinality;
    if (count_ == 0) return 0;
    if (n == kInfiniteCardinality || n == kUnknownCardinality) return n;
    return count_ * n;
  }
  std::string type() const override { return "Repeat"; }
  const DatasetBase* noop_input() const override { return count_ == 1 ? input_.get() : nullptr; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    if (count_ == 0) return std::make_unique<EmptyIterator>();
    if (count_ == 1 && ctx.noop_elimination) return input_->make_iterator(ctx);
    if (count_ < 0) return make_iterator_of<ForeverIter>(*this, ctx);
    return make_iterator_of<FiniteIter>(*this, ctx);
  }

 private:
  // Whether TF's shuffle_and_repeat_fusion makes this repeat and the shuffle under it one
  // dataset (looking through the no-ops that noop_elimination removes first).
  bool fused(const IteratorContext& ctx) const {
    if (!ctx.shuffle_and_repeat_fusion) return false;
    const DatasetBase* in = input_.get();
    while (ctx.noop_elimination && in->noop_input()) in = in->noop_input();
    return in->is_shuffle();
  }

  // TF's FiniteIterator starts the input again after each epoch, the last one included (an
  // iterator nobody reads), unless the fused shuffle-and-repeat replaces it.
  class FiniteIter : public DatasetIterator<RepeatDataset> {
   public:
    FiniteIter(std::shared_ptr<const RepeatDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx),
          restart_after_last_(!dataset().fused(ctx)),
          input_(iterate(*dataset().input_)) {}

    bool get_next(Element& out) override {
      while (input_ && epoch_ < dataset().count_) {
        if (input_->get_next(out)) return true;
        out.clear();
        ++epoch_;
        input_.reset();
        if (epoch_ < dataset().count_ || restart_after_last_) input_ = iterate(*dataset().input_);
      }
      input_.reset();
      return false;
    }

   private:
    bool restart_after_last_;
    std::unique_ptr<IteratorBase> input_;
    int64_t epoch_ = 0;
  };

  // An epoch that yields nothing ends the repetition (else it would never end).
  class ForeverIter : public DatasetIterator<RepeatDataset> {
   public:
    ForeverIter(std::shared_ptr<const RepeatDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}

    bool get_next(Element& out) override {
      while (!done_) {
        if (!input_) input_ = iterate(*dataset().input_);
        if (input_->get_next(out)) {
          epoch_started_ = true;
          return true;
        }
        out.clear();
        input_.reset();
        if (!epoch_started_) done_ = true;
        epoch_started_ = false;
      }
      return false;
    }

   private:
    std::unique_ptr<IteratorBase> input_;
    bool epoch_started_ = false;
    bool done_ = false;
  };

  int64_t count_;
};

class TakeDataset : public UnaryDataset {
 public:
  TakeDataset(DatasetRef input, int64_t count) : UnaryDataset(std::move(input)), count_(count) {}

  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (n == kUnknownCardinality) return kUnknownCardinality;
    if (n == kInfiniteCardinality) return count_;
    if (count_ < 0) return n;
    return std::min(n, count_);
  }
  std::string type() const override { return "Take"; }
  const DatasetBase* noop_input() const override { return count_ < 0 ? input_.get() : nullptr; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    if (count_ == 0) return std::make_unique<EmptyIterator>();
    if (count_ < 0 && ctx.noop_elimination) return input_->make_iterator(ctx);
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<TakeDataset> {
   public:
    Iter(std::shared_ptr<const TakeDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}

    bool get_next(Element& out) override {
      if (input_ && (dataset().count_ < 0 || taken_ < dataset().count_)) {
        if (input_->get_next(out)) {
          ++taken_;
          return true;
        }
      }
      input_.reset();
      return false;
    }

   private:
    std::unique_ptr<IteratorBase> input_;
    int64_t taken_ = 0;
  };

  int64_t count_;
};

class SkipDataset : public UnaryDataset {
 public:
  SkipDataset(DatasetRef input, int64_t count) : UnaryDataset(std::move(input)), count_(count) {}

  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (n == kInfiniteCardinality || n == kUnknownCardinality) return n;
    return count_ < 0 ? 0 : std::max<int64_t>(0, n - count_);
  }
  std::string type() const override { return "Skip"; }
  const DatasetBase* noop_input() const override { return count_ == 0 ? input_.get() : nullptr; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    if (count_ < 0) return std::make_unique<EmptyIterator>();
    if (count_ == 0 && ctx.noop_elimination) return input_->make_iterator(ctx);
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<SkipDataset> {
   public:
    Iter(std::shared_ptr<const SkipDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}

    bool get_next(Element& out) override {
      if (!input_) return false;
      while (skipped_ < dataset().count_) {
        if (!input_->get_next(out)) {
          input_.reset();
          return false;
        }
        out.clear();
        ++skipped_;
      }
      if (input_->get_next(out)) return true;
      input_.reset();
      return false;
    }

   private:
    std::unique_ptr<IteratorBase> input_;
    int64_t skipped_ = 0;
  };

  int64_t count_;
};

// Prefetching changes when elements are computed, never which: tfscope computes them when
// asked.
class PrefetchDataset : public UnaryDataset {
 public:
  PrefetchDataset(DatasetRef input, int64_t buffer_size)
      : UnaryDataset(std::move(input)), buffer_size_(buffer_size) {}

  int64_t cardinality() const override { return input_->cardinality(); }
  std::string type() const override { return "Prefetch"; }
  const DatasetBase* noop_input() const override {
    return buffer_size_ == 0 ? input_.get() : nullptr;
  }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return input_->make_iterator(ctx);
  }

 private:
  int64_t buffer_size_;
};

// The elements of the first iteration that reads its input to the end, shared by the
// dataset's later iterators (TF's MemoryCache).
struct MemoryCache : ResourceBase {
  std::mutex mu;
  bool completed = false;
  std::vector<Element> elements;
  std::string debug_name() const override { return "MemoryCache"; }
};

class CacheDataset : public UnaryDataset {
 public:
  CacheDataset(DatasetRef input, std::shared_ptr<MemoryCache> cache)
      : UnaryDataset(std::move(input)), cache_(std::move(cache)) {}

  int64_t cardinality() const override { return input_->cardinality(); }
  std::string type() const override { return "Memory"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    bool completed;
    {
      std::lock_guard<std::mutex> lock(cache_->mu);
      completed = cache_->completed;
    }
    if (completed) return make_iterator_of<ReaderIter>(*this, ctx);
    return make_iterator_of<WriterIter>(*this, ctx);
  }

 private:
  class ReaderIter : public DatasetIterator<CacheDataset> {
   public:
    using DatasetIterator::DatasetIterator;
    bool get_next(Element& out) override {
      // Completed caches never change, so reading needs no lock.
      const auto& elements = dataset().cache_->elements;
      if (next_ >= elements.size()) return false;
      out = elements[next_++];
      return true;
    }

   private:
    size_t next_ = 0;
  };

  class WriterIter : public DatasetIterator<CacheDataset> {
   public:
    WriterIter(std::shared_ptr<const CacheDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}

    bool get_next(Element& out) override {
      if (!input_) return false;
      if (input_->get_next(out)) {
        written_.push_back(out);
        return true;
      }
      input_.reset();
      MemoryCache& cache = *dataset().cache_;
      std::lock_guard<std::mutex> lock(cache.mu);
      if (!cache.completed) {
        cache.elements = std::move(written_);
        cache.completed = true;
      }
      return false;
    }

   private:
    std::unique_ptr<IteratorBase> input_;
    std::vector<Element> written_;
  };

  std::shared_ptr<MemoryCache> cache_;
};

class OptionsDataset : public UnaryDataset {
 public:
  using UnaryDataset::UnaryDataset;
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string type() const override { return "Options"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return input_->make_iterator(ctx);
  }
};

void register_resource_op(const std::string& name,
                          std::function<std::shared_ptr<ResourceBase>()> make) {
  OpDef d;
  d.name = name;
  d.outputs = {{"handle", "", DType::kResource}};
  d.stateful = true;
  d.shape_fn = [](InferenceContext& c) { c.set_output(0, Shape{}); };
  d.kernel = [make = std::move(make)](OpKernelContext& ctx) {
    ctx.set_output(0, Tensor::resource(make()));
  };
  OpRegistry::global().add(std::move(d));
}

}  // namespace

void detail::register_basic_datasets() {
  const std::vector<ArgDef> with_count = {{"input_dataset", "", DType::kVariant},
                                          {"count", "", DType::kInt64}};
  register_dataset_op("RepeatDataset", with_count, [](OpKernelContext& ctx) -> DatasetRef {
    return std::make_shared<RepeatDataset>(input_dataset(ctx, 0), scalar_int64(ctx, 1, "count"));
  });
  register_dataset_op("TakeDataset", with_count, [](OpKernelContext& ctx) -> DatasetRef {
    return std::make_shared<TakeDataset>(input_dataset(ctx, 0), scalar_int64(ctx, 1, "count"));
  });
  register_dataset_op("SkipDataset", with_count, [](OpKernelContext& ctx) -> DatasetRef {
    return std::make_shared<SkipDataset>(input_dataset(ctx, 0), scalar_int64(ctx, 1, "count"));
  });
  register_dataset_op(
      "PrefetchDataset",
      {{"input_dataset", "", DType::kVariant}, {"buffer_size", "", DType::kInt64}},
      [](OpKernelContext& ctx) -> DatasetRef {
        const int64_t n = scalar_int64(ctx, 1, "buffer_size");
        if (n < 0 && n != kAutotune) {
          invalid_argument("buffer_size must be >= 0 or set buffer_size to be -1 for auto-tuning");
        }
        return std::make_shared<PrefetchDataset>(input_dataset(ctx, 0), n);
      });
  register_resource_op("DummyMemoryCache", [] { return std::make_shared<MemoryCache>(); });
  register_dataset_op(
      "CacheDatasetV2",
      {{"input_dataset", "", DType::kVariant},
       {"filename", "", DType::kString},
       {"cache", "", DType::kResource}},
      [](OpKernelContext& ctx) -> DatasetRef {
        if (!scalar_string(ctx, 1, "filename").empty()) {
          throw Error(ErrorKind::kUnimplemented,
                      "[data] cache(filename) is not supported: tfscope caches in memory only "
                      "(call cache() without a filename)");
        }
        auto cache = std::dynamic_pointer_cast<MemoryCache>(ctx.input(2).resource_handle());
        if (!cache) invalid_argument("[data] CacheDatasetV2 needs a DummyMemoryCache resource");
        return std::make_shared<CacheDataset>(input_dataset(ctx, 0), std::move(cache));
      });
  register_dataset_op("OptionsDataset", {{"input_dataset", "", DType::kVariant}},
                      [](OpKernelContext& ctx) -> DatasetRef {
                        return std::make_shared<OptionsDataset>(input_dataset(ctx, 0));
                      });
  // TF applies the named graph rewrite to its input and returns the result; the one TF's Python
  // asks for (enumerate's "replicate_on_split") changes only how splits share the input, so the
  // input dataset is the result.
  register_dataset_op(
      "RewriteDataset",
      {{"input_dataset", "", DType::kVariant}, {"rewrite_name", "", DType::kString}},
      [](OpKernelContext& ctx) -> DatasetRef { return input_dataset(ctx, 0); });
}

}  // namespace tfs::data
