// tfs::saved_model::save into a directory, as TF 2.21's tf.saved_model.save does (checked with
// tensorflow-cpu 2.21.0): the model's files go into the directory and replace only the model's
// own files (saved_model.pb, variables/variables.{index,data-00000-of-00001}; an earlier
// fingerprint.pb goes, as tfscope writes none); other files stay. A regular file in the way is
// TF's FailedPreconditionError. Unlike TF, a failed save leaves the previous model whole, and
// errors name the file that failed (never a temporary) and why.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lab_mlp.h"
#include "tfscope/saved_model.h"
#include "tfscope/saved_model_io.h"

namespace fs = std::filesystem;
using namespace tfs;
using tfs::savedmodel::testing::make_lab_mlp;
using tfs::savedmodel::testing::seeded_floats;

namespace {

fs::path fresh_dir(const std::string& name) {
  fs::path p =
      fs::temp_directory_path() / ("tfscope_save_test_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every path under `dir`, relative, sorted.
std::vector<std::string> tree(const fs::path& dir) {
  std::vector<std::string> out;
  for (auto& e : fs::recursive_directory_iterator(dir))
    out.push_back(fs::relative(e.path(), dir).string());
  std::sort(out.begin(), out.end());
  return out;
}

// The error kind and text `f` throws.
std::pair<ErrorKind, std::string> error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return {e.kind(), e.what()};
  }
  return {ErrorKind::kInternal, "(no tfs::Error)"};
}

// A model whose one variable is `rows` x 4 of `value`.
struct OneVariable {
  std::shared_ptr<Variable> v;
  std::shared_ptr<Function> fn;
};
OneVariable one_variable(int64_t rows, float value) {
  OneVariable m;
  m.v = std::make_shared<Variable>(
      Tensor::from_vector(std::vector<float>(static_cast<size_t>(rows * 4), value), Shape{rows, 4}),
      "v");
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1, 4}, DType::kFloat32)};
  auto v = m.v;
  m.fn = function(
      "f", {"x"},
      [v](Tensor x) {
        return x + Value(slice(v->read_value(), {0, 0}, {1, 4}));
      },
      opts);
  return m;
}

std::vector<float> run_loaded(const fs::path& dir) {
  Tensor x = Tensor::from_vector(std::vector<float>{0, 0, 0, 0}, Shape{1, 4});
  return saved_model::load(dir.string())
      ->signature("serving_default")
      .call_flat({x})[0]
      .to_vector<float>();
}

// Runs `body` with the soft file size limit at `bytes` (a full disk, without filling one).
template <typename F>
auto with_file_size_limit(rlim_t bytes, F body) {
  rlimit old{};
  ::getrlimit(RLIMIT_FSIZE, &old);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit lim{bytes, old.rlim_max};
  ::setrlimit(RLIMIT_FSIZE, &lim);
  auto r = body();
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  return r;
}

// Runs `body` as a user who may not write a read-only directory (root may: it acts as nobody).
template <typename F>
auto as_unprivileged(F body) {
  const uid_t euid = ::geteuid();
  if (euid == 0 && ::seteuid(65534) != 0) throw std::runtime_error("seteuid failed");
  auto r = body();
  if (euid == 0 && ::seteuid(0) != 0) throw std::runtime_error("seteuid back failed");
  return r;
}

}  // namespace

TEST(SaveDirectory, WritesIntoAnExistingDirectoryAndKeepsOtherFiles) {
  const fs::path dir = fresh_dir("keep");
  write(dir / "notes.txt", "mine");
  write(dir / "keep" / "main.py", "print(1)");
  write(dir / "variables" / "junk", "j");
  write(dir / "assets" / "a", "asset");
  write(dir / "saved_model.pb", "old model");
  write(dir / "fingerprint.pb", "old fingerprint");
  auto mlp = make_lab_mlp();
  saved_model::save(*mlp.fn, dir.string());
  EXPECT_EQ(tree(dir),
            (std::vector<std::string>{"assets", "assets/a", "keep", "keep/main.py", "notes.txt",
                                      "saved_model.pb", "variables", "variables/junk",
                                      "variables/variables.data-00000-of-00001",
                                      "variables/variables.index"}));
  EXPECT_EQ(read(dir / "notes.txt"), "mine");
  EXPECT_EQ(read(dir / "keep" / "main.py"), "print(1)");
  EXPECT_EQ(saved_model::load(dir.string())->signatures().count("serving_default"), 1u);
}

TEST(SaveDirectory, SavingTwiceReplacesTheModel) {
  const fs::path dir = fresh_dir("twice");
  saved_model::save(*one_variable(2, 1.f).fn, dir.string());
  saved_model::save(*one_variable(2, 5.f).fn, dir.string());
  EXPECT_EQ(run_loaded(dir), (std::vector<float>{5, 5, 5, 5}));
  EXPECT_EQ(tree(dir), (std::vector<std::string>{"saved_model.pb", "variables",
                                                 "variables/variables.data-00000-of-00001",
                                                 "variables/variables.index"}));
}

TEST(SaveDirectory, RegularFileInTheWayIsFailedPrecondition) {
  const fs::path dir = fresh_dir("file");
  write(dir / "afile", "x");
  auto mlp = make_lab_mlp();
  const std::string f = (dir / "afile").string();
  EXPECT_EQ(error_of([&] { saved_model::save(*mlp.fn, f); }),
            std::make_pair(ErrorKind::kFailedPrecondition, f + " is not a directory"));
  EXPECT_EQ(error_of([&] { saved_model::save(*mlp.fn, f + "/sub"); }),
            std::make_pair(ErrorKind::kFailedPrecondition, f + " is not a directory"));
  EXPECT_EQ(read(dir / "afile"), "x");
}

TEST(SaveDirectory, LargeZerosInitializerIsAFillNotAConstant) {
  // TF writes an 11 KB saved_model.pb for a 100000 x 4 float variable: TF 1's zeros initializer
  // is Fill(shape_as_tensor, Const) from 1000 elements on. The values are in the checkpoint.
  const fs::path dir = fresh_dir("fill");
  OneVariable m = one_variable(100000, 0.5f);
  saved_model::save(*m.fn, dir.string());
  EXPECT_LT(fs::file_size(dir / "saved_model.pb"), 20000u);
  const auto model = savedmodel::read_saved_model(dir.string());
  std::map<std::string, std::string> ops;
  for (const auto& n : model.meta_graphs(0).graph_def().node()) ops[n.name()] = n.op();
  EXPECT_EQ(ops["v/Initializer/zeros"], "Fill");
  EXPECT_EQ(ops["v/Initializer/zeros/shape_as_tensor"], "Const");
  EXPECT_EQ(ops["v/Initializer/zeros/Const"], "Const");
  EXPECT_EQ(run_loaded(dir), (std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f}));
}

TEST(SaveDirectory, FailedWriteKeepsTheOldModelAndSaysWhy) {
  const fs::path dir = fresh_dir("full");
  saved_model::save(*one_variable(2, 1.f).fn, dir.string());
  const auto before = tree(dir);
  // A file size limit makes the 1.6 MB checkpoint fail to write, as a full disk would.
  OneVariable big = one_variable(100000, 2.f);
  const std::string data = (dir / "variables" / "variables.data-00000-of-00001").string();
  EXPECT_EQ(
      with_file_size_limit(
          100000, [&] { return error_of([&] { saved_model::save(*big.fn, dir.string()); }); }),
      std::make_pair(ErrorKind::kOutOfRange, data + "; File too large"));
  EXPECT_EQ(tree(dir), before);  // no staging folder or temporary left behind
  EXPECT_EQ(run_loaded(dir), (std::vector<float>{1, 1, 1, 1}));
}

TEST(SaveDirectory, ReadOnlyDirectoryIsPermissionDenied) {
  const fs::path dir = fresh_dir("readonly");
  saved_model::save(*one_variable(2, 1.f).fn, dir.string());
  const auto before = tree(dir);
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                           fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  OneVariable other = one_variable(2, 3.f);
  const auto err = as_unprivileged(
      [&] { return error_of([&] { saved_model::save(*other.fn, dir.string()); }); });
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add);
  EXPECT_EQ(err,
            std::make_pair(ErrorKind::kPermissionDenied, dir.string() + "; Permission denied"));
  EXPECT_EQ(tree(dir), before);
  for (auto& e : fs::directory_iterator(dir.parent_path()))  // no ".readonly.old-..." beside it
    EXPECT_EQ(e.path().filename().string().rfind('.', 0), std::string::npos) << e.path();
  EXPECT_EQ(run_loaded(dir), (std::vector<float>{1, 1, 1, 1}));
}

TEST(SaveDirectory, EmptyPathSavesIntoTheWorkingDirectory) {
  // TF 2.21: tf.saved_model.save(m, "") writes saved_model.pb and variables/ into the cwd.
  const fs::path dir = fresh_dir("cwd");
  OneVariable m = one_variable(2, 4.f);
  const fs::path cwd = fs::current_path();
  fs::current_path(dir);
  saved_model::save(*m.fn, "");
  fs::current_path(cwd);
  EXPECT_EQ(run_loaded(dir), (std::vector<float>{4, 4, 4, 4}));
}
