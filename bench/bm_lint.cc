// Lint throughput: lines of Python per second on one core, over the lint corpus (TF-using code,
// every snippet with tf.functions to analyse) and over a synthetic module shaped like library
// code. items_per_second is lines per second (CPU time).
#include <benchmark/benchmark.h>

#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tfscope/lint.h"

namespace {

std::vector<std::string> corpus_sources() {
  std::vector<std::string> out;
  for (auto& e : std::filesystem::directory_iterator(TFSCOPE_LINT_CORPUS_DIR)) {
    if (e.path().extension() != ".py") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back(ss.str());
  }
  return out;
}

long count_lines(const std::string& s) {
  long n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

void BM_LintCorpus(benchmark::State& state) {
  std::vector<std::string> sources = corpus_sources();
  long lines = 0;
  for (auto& s : sources) lines += count_lines(s);
  size_t findings = 0;
  for (auto _ : state)
    for (auto& s : sources) findings += tfs::lint::lint_source(s, "snippet.py").size();
  benchmark::DoNotOptimize(findings);
  state.SetItemsProcessed(state.iterations() * lines);
  state.counters["lines"] = static_cast<double>(lines);
}
BENCHMARK(BM_LintCorpus)->Unit(benchmark::kMillisecond);

// A module of `classes` Keras-style classes, each with a tf.function train step, a helper it
// calls, and plain methods: the mix of traced and untraced code a library has.
std::string synthetic_module(int classes) {
  std::string s = "import numpy as np\nimport tensorflow as tf\n\nSTEPS = 10\n\n";
  for (int i = 0; i < classes; ++i) {
    std::string n = std::to_string(i);
    s += "class Model" + n +
         "(tf.Module):\n"
         "    \"\"\"A model with a traced step.\"\"\"\n\n"
         "    def __init__(self, units=" +
         n +
         "):\n"
         "        self.units = units\n"
         "        self.w = tf.Variable(tf.zeros([units + 1, 4]))\n"
         "        self.history = []\n\n"
         "    def _scale(self, x, factor=2.0):\n"
         "        return x * factor + tf.reduce_mean(x)\n\n"
         "    @tf.function(reduce_retracing=True)\n"
         "    def train_step(self, x, y):\n"
         "        total = tf.constant(0.0)\n"
         "        for i in tf.range(STEPS):\n"
         "            z = self._scale(tf.matmul(x, self.w))\n"
         "            if tf.reduce_sum(z) > 0:\n"
         "                total += tf.reduce_sum(z - y)\n"
         "        return total\n\n"
         "    def describe(self, verbose=False):\n"
         "        parts = [str(self.units), repr(self.history)]\n"
         "        if verbose:\n"
         "            parts.append({'units': self.units, 'n': len(self.history)})\n"
         "        return ', '.join(p for p in parts if p)\n\n\n";
  }
  s += "def main():\n    models = [Model0()]\n    for m in models:\n"
       "        m.train_step(tf.ones([2, 1]), tf.zeros([2, 4]))\n";
  return s;
}

void BM_LintSyntheticLibrary(benchmark::State& state) {
  std::string src = synthetic_module(static_cast<int>(state.range(0)));
  long lines = count_lines(src);
  size_t findings = 0;
  for (auto _ : state) findings += tfs::lint::lint_source(src, "library.py").size();
  benchmark::DoNotOptimize(findings);
  state.SetItemsProcessed(state.iterations() * lines);
  state.counters["lines"] = static_cast<double>(lines);
}
BENCHMARK(BM_LintSyntheticLibrary)->Arg(200)->Unit(benchmark::kMillisecond);

// Real code: the Python sources of the keras package in TF's oracle environment, when present
// (TFSCOPE_LINT_BENCH_DIR overrides the directory).
void BM_LintKerasSources(benchmark::State& state) {
  const char* env = std::getenv("TFSCOPE_LINT_BENCH_DIR");
  std::string dir =
      env ? env : "/root/.cache/tfscope/oracle-venv/lib/python3.11/site-packages/keras";
  std::vector<std::string> sources;
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec))
    for (auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
      if (e.path().extension() != ".py") continue;
      std::ifstream in(e.path());
      std::stringstream ss;
      ss << in.rdbuf();
      sources.push_back(ss.str());
    }
  if (sources.empty()) {
    state.SkipWithError("no Python sources found (set TFSCOPE_LINT_BENCH_DIR)");
    return;
  }
  long lines = 0;
  for (auto& s : sources) lines += count_lines(s);
  size_t findings = 0;
  for (auto _ : state)
    for (auto& s : sources) findings += tfs::lint::lint_source(s, "module.py").size();
  benchmark::DoNotOptimize(findings);
  state.SetItemsProcessed(state.iterations() * lines);
  state.counters["lines"] = static_cast<double>(lines);
  state.counters["findings"] = static_cast<double>(findings / state.iterations());
}
BENCHMARK(BM_LintKerasSources)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
