// ShuffleDatasetV3 (shuffle): TF's buffer algorithm and random stream, element for element.
//
// Each iterator seeds a Philox stream from its dataset's seed generator: the (seed, seed2) pair
// itself when reshuffle_each_iteration is false, otherwise two 32-bit samples drawn from a
// Philox stream of (seed, seed2) that the dataset keeps, so every new iterator (every epoch of a
// repeat) shuffles differently but reproducibly. The iterator fills a buffer of `buffer_size`
// elements; each element it produces is the buffered one at a uniformly drawn offset
// (sample % count), whose slot then takes the oldest buffered element, and one more input
// element enters the buffer. Only the logical order of the buffer matters, so it is kept as a
// deque rather than TF's ring of buffer_size slots.
#include <deque>
#include <mutex>
#include <random>

#include "dataset_impl.h"
#include "tfscope/detail/philox.h"

namespace tfs::data {
namespace {

using detail::DatasetIterator;
using detail::make_iterator_of;
using tfs::detail::Philox;
using tfs::detail::PhiloxSamples;

// TF's FixedSeedGenerator / RandomSeedGenerator, behind one lock.
class SeedGenerator {
 public:
  SeedGenerator(int64_t seed, int64_t seed2, bool reshuffle)
      : seed_(seed),
        seed2_(seed2),
        reshuffle_(reshuffle),
        samples_(Philox(static_cast<uint64_t>(seed), 0, static_cast<uint64_t>(seed2))) {}

  std::pair<int64_t, int64_t> generate() {
    if (!reshuffle_) return {seed_, seed2_};
    std::lock_guard<std::mutex> lock(mu_);
    const int64_t a = samples_.next();
    const int64_t b = samples_.next();
    return {a, b};
  }

 private:
  const int64_t seed_, seed2_;
  const bool reshuffle_;
  std::mutex mu_;
  PhiloxSamples samples_;
};

class ShuffleDataset : public DatasetBase {
 public:
  ShuffleDataset(DatasetRef input, int64_t buffer_size, std::shared_ptr<SeedGenerator> seeds)
      : DatasetBase(input->output_dtypes(), input->output_shapes()),
        input_(std::move(input)),
        buffer_size_(buffer_size),
        seeds_(std::move(seeds)) {}

  int64_t cardinality() const override { return input_->cardinality(); }
  std::string type() const override { return "Shuffle"; }
  bool is_shuffle() const override { return true; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<ShuffleDataset> {
   public:
    Iter(std::shared_ptr<const ShuffleDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), samples_(seeded(dataset().seeds_->generate())) {}

    bool get_next(Element& out) override {
      fill();
      if (buffer_.empty()) return false;
      const uint64_t offset = samples_.next() % static_cast<uint64_t>(buffer_.size());
      out = std::move(buffer_[offset]);
      if (offset != 0) buffer_[offset] = std::move(buffer_.front());
      buffer_.pop_front();
      return true;
    }

   private:
    static PhiloxSamples seeded(std::pair<int64_t, int64_t> s) {
      return PhiloxSamples(
          Philox(static_cast<uint64_t>(s.first), 0, static_cast<uint64_t>(s.second)));
    }

    bool room() const {
      const int64_t size = dataset().buffer_size_;
      return size == kUnknownCardinality || static_cast<int64_t>(buffer_.size()) < size;
    }

    void fill() {
      if (!input_started_) {
        input_ = iterate(*dataset().input_);
        input_started_ = true;
      }
      while (input_ && room()) {
        Element e;
        if (!input_->get_next(e)) {
          input_.reset();
          break;
        }
        buffer_.push_back(std::move(e));
      }
    }

    PhiloxSamples samples_;
    std::unique_ptr<IteratorBase> input_;
    bool input_started_ = false;
    std::deque<Element> buffer_;
  };

  DatasetRef input_;
  int64_t buffer_size_;
  std::shared_ptr<SeedGenerator> seeds_;
};

// What DummySeedGenerator hands ShuffleDatasetV3: "make your own generator".
class DummySeedGenerator : public ResourceBase {
 public:
  std::string debug_name() const override { return "DummySeedGenerator"; }
};

}  // namespace

void detail::register_shuffle_dataset() {
  OpDef dummy;
  dummy.name = "DummySeedGenerator";
  dummy.outputs = {{"handle", "", DType::kResource}};
  dummy.stateful = true;
  dummy.shape_fn = [](InferenceContext& c) { c.set_output(0, Shape{}); };
  dummy.kernel = [](OpKernelContext& ctx) {
    ctx.set_output(0, Tensor::resource(std::make_shared<DummySeedGenerator>()));
  };
  OpRegistry::global().add(std::move(dummy));

  register_dataset_op(
      "ShuffleDatasetV3",
      {{"input_dataset", "", DType::kVariant},
       {"buffer_size", "", DType::kInt64},
       {"seed", "", DType::kInt64},
       {"seed2", "", DType::kInt64},
       {"seed_generator", "", DType::kResource}},
      [](OpKernelContext& ctx) -> DatasetRef {
        const int64_t buffer_size = scalar_int64(ctx, 1, "buffer_size");
        if (buffer_size <= 0 && buffer_size != kUnknownCardinality) {
          invalid_argument("buffer_size must be greater than zero or UNKNOWN_CARDINALITY");
        }
        int64_t seed = scalar_int64(ctx, 2, "seed");
        int64_t seed2 = scalar_int64(ctx, 3, "seed2");
        // TF's RandomSeeds: (0, 0) asks for seeds from the OS.
        if (seed == 0 && seed2 == 0) {
          std::random_device rd;
          auto draw64 = [&rd] { return static_cast<int64_t>((uint64_t{rd()} << 32) | rd()); };
          seed = draw64();
          seed2 = draw64();
        }
        const bool reshuffle = attr_bool_or(*ctx.attrs, "reshuffle_each_iteration", true);
        return std::make_shared<ShuffleDataset>(
            input_dataset(ctx, 0), buffer_size,
            std::make_shared<SeedGenerator>(seed, seed2, reshuffle));
      });
}

}  // namespace tfs::data
