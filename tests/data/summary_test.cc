// tf.summary's writer ops run eagerly, their event file read back through the TFRecord reader and
// the Event proto: the header event TF writes when the file opens, a scalar's step, tag, dtype
// and bytes, a string tensor's string_val, and TF's queue rule (written out once more than
// max_queue events wait: TF 2.21 with max_queue=2 had 1 event on disk after 2 scalars and 4 after
// the third, conformance case summary_events).
#include "tfscope/summary.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "tfscope/ops.h"
#include "tfscope/proto/event.pb.h"
#include "tfscope/tfrecord.h"

namespace tfs::data {
namespace {

namespace fs = std::filesystem;

struct Writer {
  explicit Writer(const std::string& dir, int32_t max_queue) {
    register_summary_ops();
    handle = execute1("SummaryWriter", {}, {{"shared_name", std::string("")}});
    execute("CreateSummaryFileWriter",
            {handle, Tensor::string_scalar(dir), Tensor::scalar<int32_t>(max_queue),
             Tensor::scalar<int32_t>(100000000), Tensor::string_scalar(".v2")});
  }
  void write(int64_t step, const Tensor& t, const std::string& tag) {
    execute("WriteSummary", {handle, Tensor::scalar<int64_t>(step), t, Tensor::string_scalar(tag),
                             Tensor::string_scalar("\n\t\n\007scalars")});
  }
  Tensor handle;
};

std::vector<tfscope::events::Event> read_events(const std::string& dir) {
  std::vector<tfscope::events::Event> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    TFRecordReader r(entry.path().string(), Compression::kNone);
    std::string rec;
    while (r.read(rec)) {
      out.emplace_back();
      EXPECT_TRUE(out.back().ParseFromString(rec));
    }
  }
  return out;
}

std::string fresh_dir(const std::string& name) {
  fs::path p = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(p);
  return (p / "logs").string();  // the writer makes the missing directories
}

TEST(Summary, FileHeaderScalarAndText) {
  std::string dir = fresh_dir("tfs_summary_test");
  {
    Writer w(dir, 10);
    auto files = std::vector<fs::path>(fs::directory_iterator(dir), fs::directory_iterator());
    ASSERT_EQ(files.size(), 1u);
    std::string name = files[0].filename().string();
    EXPECT_EQ(name.rfind("events.out.tfevents.", 0), 0u) << name;
    EXPECT_EQ(name.substr(name.size() - 3), ".v2");
    w.write(3, Tensor::scalar<float>(0.5f), "loss");
    w.write(4, Tensor::strings({"a", "b"}, Shape{2}), "note");
    execute("FlushSummaryWriter", {w.handle});
  }
  auto ev = read_events(dir);
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].file_version(), "brain.Event:2");
  EXPECT_EQ(ev[0].source_metadata().writer(), "tensorflow.core.util.events_writer");
  EXPECT_EQ(ev[0].wall_time(), static_cast<double>(static_cast<int64_t>(ev[0].wall_time())));
  EXPECT_EQ(ev[1].step(), 3);
  ASSERT_EQ(ev[1].summary().value_size(), 1);
  const auto& v = ev[1].summary().value(0);
  EXPECT_EQ(v.tag(), "loss");
  EXPECT_EQ(v.metadata().plugin_data().plugin_name(), "scalars");
  EXPECT_EQ(v.tensor().dtype(), 1);  // DT_FLOAT
  EXPECT_EQ(v.tensor().tensor_shape().dim_size(), 0);
  float f = 0;
  ASSERT_EQ(v.tensor().tensor_content().size(), sizeof f);
  std::memcpy(&f, v.tensor().tensor_content().data(), sizeof f);
  EXPECT_EQ(f, 0.5f);
  const auto& t = ev[2].summary().value(0).tensor();
  EXPECT_EQ(t.dtype(), 7);  // DT_STRING
  ASSERT_EQ(t.string_val_size(), 2);
  EXPECT_EQ(t.string_val(1), "b");
  EXPECT_GE(ev[2].wall_time(), ev[1].wall_time());
}

TEST(Summary, QueueIsWrittenWhenItHoldsMoreThanMaxQueue) {
  std::string dir = fresh_dir("tfs_summary_queue");
  Writer w(dir, 2);
  std::vector<size_t> seen;
  for (int i = 0; i < 4; ++i) {
    w.write(1, Tensor::scalar<float>(static_cast<float>(i)), "q");
    seen.push_back(read_events(dir).size());
  }
  execute("CloseSummaryWriter", {w.handle});
  seen.push_back(read_events(dir).size());
  EXPECT_EQ(seen, (std::vector<size_t>{1, 1, 4, 4, 5}));
}

TEST(Summary, WriteToAWriterWithoutAFileIsAnError) {
  register_summary_ops();
  Tensor h = execute1("SummaryWriter", {}, {});
  EXPECT_THROW(execute("WriteSummary", {h, Tensor::scalar<int64_t>(1), Tensor::scalar<float>(1),
                                        Tensor::string_scalar("x"), Tensor::string_scalar("")}),
               Error);
}

}  // namespace
}  // namespace tfs::data
