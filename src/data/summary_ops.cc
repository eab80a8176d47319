// tf.summary's ops as TF 2.21 defines them: SummaryWriter makes the writer resource,
// CreateSummaryFileWriter opens its event file (once: later runs on the same resource do
// nothing, as TF's LookupOrCreate), WriteSummary queues one tensor event, FlushSummaryWriter
// writes the queue out, CloseSummaryWriter flushes and closes.
//
// The event file is TF's: named events.out.tfevents.<seconds, 10 digits>.<host>.<pid>.<n><suffix>
// with n counting the writers this process opened, TFRecord-framed Event protos, the first one the
// file version ("brain.Event:2") written and flushed when the file opens. Events wait in a queue
// that is written out when it holds more than max_queue events, when flush_millis have passed
// since the last flush, on FlushSummaryWriter and when the writer closes or is destroyed.
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>

#include "dataset_impl.h"
#include "tfscope/ops.h"
#include "tfscope/proto/event.pb.h"
#include "tfscope/summary.h"
#include "tfscope/tfrecord.h"

namespace tfs::data {
namespace {

double now_seconds() {
  using namespace std::chrono;
  return static_cast<double>(
             duration_cast<microseconds>(system_clock::now().time_since_epoch()).count()) /
         1.0e6;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "localhost";
  return buf;
}

// RecursivelyCreateDir: every missing parent, then the directory.
void make_dirs(const std::string& dir) {
  for (size_t i = 1; i <= dir.size(); ++i) {
    if (i != dir.size() && dir[i] != '/') continue;
    std::string part = dir.substr(0, i);
    if (::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) {
      throw Error(ErrorKind::kNotFound,
                  "Failed to create a directory: " + part + "; " + std::strerror(errno));
    }
  }
}

std::atomic<int64_t> g_writers_opened{0};

class SummaryFileWriter : public ResourceBase {
 public:
  ~SummaryFileWriter() override {
    try {
      close();
    } catch (...) {  // a destructor reports nothing, as TF's logs and goes on
    }
  }
  std::string debug_name() const override { return "SummaryFileWriter"; }

  // CreateSummaryFileWriter: the first run opens the file; later ones keep the first's file.
  void open(const std::string& logdir, int32_t max_queue, int32_t flush_millis,
            const std::string& suffix) {
    std::lock_guard<std::mutex> lock(mu_);
    if (opened_) return;
    make_dirs(logdir);
    double now = now_seconds();
    auto seconds = static_cast<long long>(now);
    char stamp[32];
    std::snprintf(stamp, sizeof(stamp), "%010lld", seconds);
    path_ = logdir + "/events.out.tfevents." + stamp + "." + host_name() + "." +
            std::to_string(::getpid()) + "." + std::to_string(g_writers_opened++) + suffix;
    file_ = std::make_unique<TFRecordWriter>(path_, Compression::kNone);
    max_queue_ = max_queue;
    flush_millis_ = flush_millis;
    tfscope::events::Event first;
    first.set_wall_time(static_cast<double>(seconds));
    first.set_file_version("brain.Event:2");
    first.mutable_source_metadata()->set_writer("tensorflow.core.util.events_writer");
    file_->write(first.SerializeAsString());
    file_->flush();
    last_flush_ = now;
    opened_ = true;
  }

  void write(tfscope::events::Event& e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!opened_ || closed_) {
      throw Error(ErrorKind::kFailedPrecondition,
                  closed_ ? "The summary writer is closed." : "The summary writer is not open.");
    }
    double now = now_seconds();
    e.set_wall_time(now);
    queue_.push_back(e.SerializeAsString());
    if (static_cast<int64_t>(queue_.size()) > max_queue_ ||
        (now - last_flush_) * 1000.0 > static_cast<double>(flush_millis_)) {
      flush_locked(now);
    }
  }

  void flush() {
    std::lock_guard<std::mutex> lock(mu_);
    if (opened_ && !closed_) flush_locked(now_seconds());
  }

  void close() {
    std::lock_guard<std::mutex> lock(mu_);
    if (!opened_ || closed_) return;
    flush_locked(now_seconds());
    file_->close();
    closed_ = true;
  }

 private:
  void flush_locked(double now) {
    for (const std::string& r : queue_) file_->write(r);
    queue_.clear();
    file_->flush();
    last_flush_ = now;
  }

  std::mutex mu_;
  bool opened_ = false;
  bool closed_ = false;
  std::string path_;
  std::unique_ptr<TFRecordWriter> file_;
  std::vector<std::string> queue_;
  int64_t max_queue_ = 10;
  int64_t flush_millis_ = 120000;
  double last_flush_ = 0;
};

// The resource manager's summary writers by shared name: one resource per name while it lives.
std::mutex g_registry_mu;
std::map<std::string, std::weak_ptr<SummaryFileWriter>>& registry() {
  static std::map<std::string, std::weak_ptr<SummaryFileWriter>> r;
  return r;
}

std::shared_ptr<SummaryFileWriter> writer_of(const OpKernelContext& ctx) {
  auto w = std::dynamic_pointer_cast<SummaryFileWriter>(ctx.input(0).resource_handle());
  if (!w) invalid_argument("Expected a summary writer resource handle");
  return w;
}

// Tensor::AsProtoTensorContent (numbers, bools) or AsProtoField (strings) into a TensorProto.
void tensor_to_proto(const Tensor& t, tfscope::events::Tensor& p) {
  p.set_dtype(static_cast<int32_t>(t.dtype()));
  auto* shape = p.mutable_tensor_shape();
  for (int64_t d : t.eager_shape().dims()) shape->add_dim()->set_size(d);
  if (t.dtype() == DType::kString) {
    for (const std::string& s : t.string_values()) p.add_string_val(s);
    return;
  }
  if (dtype_size(t.dtype()) == 0) {
    invalid_argument("Cannot write a summary of a " + std::string(dtype_tf_string(t.dtype())) +
                     " tensor");
  }
  p.set_tensor_content(static_cast<const char*>(t.raw_data()), t.nbytes());
}

}  // namespace

void register_summary_ops() {
  static std::once_flag once;
  std::call_once(once, [] {
    OpDef make;
    make.name = "SummaryWriter";
    make.outputs = {{"writer", "", DType::kResource}};
    make.stateful = true;
    make.shape_fn = [](InferenceContext& c) { c.set_output(0, Shape{}); };
    make.kernel = [](OpKernelContext& ctx) {
      const AttrMap& a = *ctx.attrs;
      std::string name = a.count("shared_name") ? attr_string(a, "shared_name") : "";
      std::string container = a.count("container") ? attr_string(a, "container") : "";
      std::shared_ptr<SummaryFileWriter> w;
      if (name.empty()) {
        w = std::make_shared<SummaryFileWriter>();
      } else {
        std::lock_guard<std::mutex> lock(g_registry_mu);
        auto& slot = registry()[container + "/" + name];
        w = slot.lock();
        if (!w) {
          w = std::make_shared<SummaryFileWriter>();
          slot = w;
        }
      }
      ctx.set_output(0, Tensor::resource(std::move(w)));
    };
    OpRegistry::global().add(std::move(make));

    OpDef create;
    create.name = "CreateSummaryFileWriter";
    create.inputs = {{"writer", "", DType::kResource},
                     {"logdir", "", DType::kString},
                     {"max_queue", "", DType::kInt32},
                     {"flush_millis", "", DType::kInt32},
                     {"filename_suffix", "", DType::kString}};
    create.stateful = true;
    create.kernel = [](OpKernelContext& ctx) {
      writer_of(ctx)->open(ctx.input(1).string_values().at(0), ctx.input(2).item<int32_t>(),
                           ctx.input(3).item<int32_t>(), ctx.input(4).string_values().at(0));
    };
    OpRegistry::global().add(std::move(create));

    OpDef write;
    write.name = "WriteSummary";
    write.inputs = {{"writer", "", DType::kResource},
                    {"step", "", DType::kInt64},
                    {"tensor", "T"},
                    {"tag", "", DType::kString},
                    {"summary_metadata", "", DType::kString}};
    write.type_attrs = {{"T"}};
    write.stateful = true;
    write.kernel = [](OpKernelContext& ctx) {
      tfscope::events::Event e;
      e.set_step(ctx.input(1).item<int64_t>());
      auto* v = e.mutable_summary()->add_value();
      tensor_to_proto(ctx.input(2), *v->mutable_tensor());
      v->set_tag(ctx.input(3).string_values().at(0));
      const std::string& meta = ctx.input(4).string_values().at(0);
      if (!meta.empty() && !v->mutable_metadata()->ParseFromString(meta)) {
        invalid_argument("Could not parse the summary metadata");
      }
      writer_of(ctx)->write(e);
    };
    OpRegistry::global().add(std::move(write));

    OpDef flush;
    flush.name = "FlushSummaryWriter";
    flush.inputs = {{"writer", "", DType::kResource}};
    flush.stateful = true;
    flush.kernel = [](OpKernelContext& ctx) { writer_of(ctx)->flush(); };
    OpRegistry::global().add(std::move(flush));

    OpDef close;
    close.name = "CloseSummaryWriter";
    close.inputs = {{"writer", "", DType::kResource}};
    close.stateful = true;
    close.kernel = [](OpKernelContext& ctx) { writer_of(ctx)->close(); };
    OpRegistry::global().add(std::move(close));
  });
}

}  // namespace tfs::data
