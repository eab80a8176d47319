// WindowDataset (window): each element is one dataset per component, holding `size` input
// elements taken every `stride`-th, the windows starting `shift` elements apart.
#include <deque>

#include "dataset_impl.h"

namespace tfs::data {
namespace {

using detail::DatasetIterator;
using detail::make_iterator_of;

// One component of one window: the elements it holds (TF's window dataset, which Python shows
// as _VariantDataset).
class WindowElementsDataset : public DatasetBase {
 public:
  WindowElementsDataset(std::vector<Tensor> elements, DType dtype, PartialShape shape)
      : DatasetBase({dtype}, {std::move(shape)}), elements_(std::move(elements)) {}

  int64_t cardinality() const override { return static_cast<int64_t>(elements_.size()); }
  std::string type() const override { return "Window"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<WindowElementsDataset> {
   public:
    using DatasetIterator::DatasetIterator;
    bool get_next(Element& out) override {
      if (next_ >= dataset().elements_.size()) return false;
      out.push_back(dataset().elements_[next_++]);
      return true;
    }

   private:
    size_t next_ = 0;
  };

  std::vector<Tensor> elements_;
};

class WindowDataset : public DatasetBase {
 public:
  WindowDataset(DatasetRef input, int64_t size, int64_t shift, int64_t stride, bool drop_remainder)
      : DatasetBase(
            std::vector<DType>(input->output_dtypes().size(), DType::kVariant),
            std::vector<PartialShape>(input->output_dtypes().size(), PartialShape(Shape{}))),
        input_(std::move(input)),
        size_(size),
        shift_(shift),
        stride_(stride),
        drop_remainder_(drop_remainder) {}

  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (n == kInfiniteCardinality || n == kUnknownCardinality) return n;
    if (!drop_remainder_) return n / shift_ + (n % shift_ == 0 ? 0 : 1);
    const int64_t span = (size_ - 1) * stride_ + 1;
    return n < span ? 0 : (n - span) / shift_ + 1;
  }
  std::string type() const override { return "Window"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<WindowDataset> {
   public:
    Iter(std::shared_ptr<const WindowDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}

    bool get_next(Element& out) override {
      const WindowDataset& d = dataset();
      const size_t span = static_cast<size_t>((d.size_ - 1) * d.stride_ + 1);
      while (input_ && buffer_.size() < span) {
        Element e;
        if (!input_->get_next(e)) {
          input_.reset();
          break;
        }
        buffer_.push_back(std::move(e));
      }
      if (buffer_.empty() || (d.drop_remainder_ && buffer_.size() < span)) return false;
      // The window's elements, before the buffer moves on by `shift`.
      std::vector<const Element*> picked;
      for (size_t i = 0; i < buffer_.size(); i += static_cast<size_t>(d.stride_)) {
        picked.push_back(&buffer_[i]);
      }
      for (size_t c = 0; c < d.input_->output_dtypes().size(); ++c) {
        std::vector<Tensor> elements;
        for (const Element* e : picked) elements.push_back((*e)[c]);
        out.push_back(dataset_tensor(std::make_shared<WindowElementsDataset>(
            std::move(elements), d.input_->output_dtypes()[c], d.input_->output_shapes()[c])));
      }
      shift_buffer();
      return true;
    }

   private:
    // Drops `shift` elements: from the buffer, then (when the shift is longer) from the input.
    void shift_buffer() {
      const size_t shift = static_cast<size_t>(dataset().shift_);
      if (shift < buffer_.size()) {
        buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<long>(shift));
        return;
      }
      for (size_t i = buffer_.size(); input_ && i < shift; ++i) {
        Element skipped;
        if (!input_->get_next(skipped)) input_.reset();
      }
      buffer_.clear();
    }

    std::unique_ptr<IteratorBase> input_;
    std::deque<Element> buffer_;
  };

  DatasetRef input_;
  int64_t size_, shift_, stride_;
  bool drop_remainder_;
};

}  // namespace

void detail::register_window_dataset() {
  register_dataset_op("WindowDataset",
                      {{"input_dataset", "", DType::kVariant},
                       {"size", "", DType::kInt64},
                       {"shift", "", DType::kInt64},
                       {"stride", "", DType::kInt64},
                       {"drop_remainder", "", DType::kBool}},
                      [](OpKernelContext& ctx) -> DatasetRef {
                        const int64_t size = scalar_int64(ctx, 1, "size");
                        const int64_t shift = scalar_int64(ctx, 2, "shift");
                        const int64_t stride = scalar_int64(ctx, 3, "stride");
                        if (size <= 0) invalid_argument("Window size must be greater than zero.");
                        if (shift <= 0) invalid_argument("Window shift must be greater than zero.");
                        if (stride <= 0)
                          invalid_argument("Window stride must be greater than zero.");
                        return std::make_shared<WindowDataset>(
                            input_dataset(ctx, 0), size, shift, stride,
                            scalar_bool(ctx, 4, "drop_remainder"));
                      });
}

}  // namespace tfs::data
