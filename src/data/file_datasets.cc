// Datasets over files: TFRecordDatasetV2 (records of TFRecord files) and TextLineDataset (lines
// of text files).
#include "dataset_impl.h"
#include "tfscope/tfrecord.h"

namespace tfs::data {
namespace {

using detail::DatasetIterator;
using detail::make_iterator_of;

// The files one after another, as TF's file datasets read them: an error of a file's record
// (DataLoss) moves on to the next file, so that the next call reads on; a file that does not
// open is tried again on the next call.
template <class Reader>
class FileDataset : public DatasetBase {
 public:
  FileDataset(std::vector<std::string> files, Compression c, std::string type)
      : DatasetBase({DType::kString}, {PartialShape(Shape{})}),
        files_(std::move(files)),
        compression_(c),
        type_(std::move(type)) {}

  int64_t cardinality() const override { return kUnknownCardinality; }
  std::string type() const override { return type_; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<FileDataset> {
   public:
    using DatasetIterator<FileDataset>::DatasetIterator;
    bool get_next(Element& out) override {
      const FileDataset& d = this->dataset();
      while (true) {
        if (reader_) {
          std::string record;
          bool got;
          try {
            got = reader_->read(record);
          } catch (const Error&) {
            reader_.reset();
            ++file_;
            throw;
          }
          if (got) {
            out.push_back(Tensor::string_scalar(std::move(record)));
            return true;
          }
          reader_.reset();
          ++file_;
        }
        if (file_ >= d.files_.size()) return false;
        reader_ = std::make_unique<Reader>(d.files_[file_], d.compression_);
      }
    }

   private:
    std::unique_ptr<Reader> reader_;
    size_t file_ = 0;
  };

  std::vector<std::string> files_;
  Compression compression_;
  std::string type_;
};

std::vector<std::string> filenames_arg(const OpKernelContext& ctx) {
  const Tensor& t = ctx.input(0);
  if (t.dtype() != DType::kString || t.eager_shape().rank() > 1) {
    invalid_argument("`filenames` must be a scalar or a vector.");
  }
  return t.string_values();
}

int64_t buffer_size_arg(const OpKernelContext& ctx) {
  const int64_t n = detail::scalar_int64(ctx, 2, "buffer_size");
  if (n < 0) invalid_argument("`buffer_size` must be >= 0 (0 == no buffering)");
  return n;
}

}  // namespace

void detail::register_file_datasets() {
  register_dataset_op(
      "TFRecordDatasetV2",
      {{"filenames", "", DType::kString},
       {"compression_type", "", DType::kString},
       {"buffer_size", "", DType::kInt64},
       {"byte_offsets", "", DType::kInt64}},
      [](OpKernelContext& ctx) -> DatasetRef {
        auto files = filenames_arg(ctx);
        const Compression c = compression_from_name(scalar_string(ctx, 1, "compression_type"));
        buffer_size_arg(ctx);
        return std::make_shared<FileDataset<TFRecordReader>>(std::move(files), c, "TFRecord");
      });
  register_dataset_op(
      "TextLineDataset",
      {{"filenames", "", DType::kString},
       {"compression_type", "", DType::kString},
       {"buffer_size", "", DType::kInt64}},
      [](OpKernelContext& ctx) -> DatasetRef {
        auto files = filenames_arg(ctx);
        const Compression c = compression_from_name(scalar_string(ctx, 1, "compression_type"));
        buffer_size_arg(ctx);
        return std::make_shared<FileDataset<LineReader>>(std::move(files), c, "TextLine");
      });
}

}  // namespace tfs::data
