// TF's seed rules (python/framework/random_seed.py): which (seed, seed2) attrs a random op gets
// from the global seed, the graph's seed and its own op seed.
//
// Eagerly, an op without an op seed takes one from Python's random.Random(global_seed) (TF's
// context.internal_operation_seed), so that generator is reproduced here: Mersenne Twister
// MT19937 seeded as CPython seeds it from an int, and randint(0, 2**31 - 1) as CPython draws it.
#include <array>
#include <mutex>

#include "tfscope/ops.h"

namespace tfs {
namespace {

constexpr int64_t kMaxInt32 = 2147483647;         // random_seed._MAXINT32
constexpr int64_t kDefaultGraphSeed = 87654321;  // random_seed.DEFAULT_GRAPH_SEED

class PythonRandom {
 public:
  // random.Random(n): init_by_array over |n|'s 32-bit words, least significant first.
  explicit PythonRandom(int64_t n) {
    uint64_t u = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
    std::array<uint32_t, 2> key{static_cast<uint32_t>(u), static_cast<uint32_t>(u >> 32)};
    init_by_array(key.data(), key[1] != 0 ? 2 : 1);
  }

  // randint(0, 2**31 - 1): _randbelow(2**31) draws 32 bits and rejects values >= 2**31.
  int64_t randint_int32() {
    uint32_t r = next_uint32();
    while (r >= 0x80000000u) r = next_uint32();
    return static_cast<int64_t>(r);
  }

 private:
  static constexpr int kN = 624, kM = 397;

  void init_genrand(uint32_t s) {
    mt_[0] = s;
    for (int i = 1; i < kN; ++i) {
      mt_[static_cast<size_t>(i)] =
          1812433253u * (mt_[static_cast<size_t>(i - 1)] ^ (mt_[static_cast<size_t>(i - 1)] >> 30)) +
          static_cast<uint32_t>(i);
    }
    index_ = kN;
  }

  void init_by_array(const uint32_t* key, int key_length) {
    init_genrand(19650218u);
    int i = 1, j = 0;
    for (int k = kN > key_length ? kN : key_length; k > 0; --k) {
      uint32_t prev = mt_[static_cast<size_t>(i - 1)];
      mt_[static_cast<size_t>(i)] = (mt_[static_cast<size_t>(i)] ^ ((prev ^ (prev >> 30)) * 1664525u)) +
                                    key[j] + static_cast<uint32_t>(j);
      ++i;
      ++j;
      if (i >= kN) {
        mt_[0] = mt_[kN - 1];
        i = 1;
      }
      if (j >= key_length) j = 0;
    }
    for (int k = kN - 1; k > 0; --k) {
      uint32_t prev = mt_[static_cast<size_t>(i - 1)];
      mt_[static_cast<size_t>(i)] =
          (mt_[static_cast<size_t>(i)] ^ ((prev ^ (prev >> 30)) * 1566083941u)) -
          static_cast<uint32_t>(i);
      ++i;
      if (i >= kN) {
        mt_[0] = mt_[kN - 1];
        i = 1;
      }
    }
    mt_[0] = 0x80000000u;
  }

  void twist() {
    for (int i = 0; i < kN; ++i) {
      uint32_t y = (mt_[static_cast<size_t>(i)] & 0x80000000u) |
                   (mt_[static_cast<size_t>((i + 1) % kN)] & 0x7fffffffu);
      uint32_t v = mt_[static_cast<size_t>((i + kM) % kN)] ^ (y >> 1);
      mt_[static_cast<size_t>(i)] = (y & 1u) ? v ^ 0x9908b0dfu : v;
    }
    index_ = 0;
  }

  uint32_t next_uint32() {
    if (index_ >= kN) twist();
    uint32_t y = mt_[static_cast<size_t>(index_++)];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  }

  std::array<uint32_t, kN> mt_{};
  int index_ = kN;
};

// The eager context's seed state (context.global_seed and its op-seed generator).
struct EagerSeedState {
  std::mutex mu;
  std::optional<int64_t> global_seed;
  std::optional<PythonRandom> op_seeds;
};

EagerSeedState& eager_seed_state() {
  static EagerSeedState* state = new EagerSeedState;
  return *state;
}

// random_seed._truncate_seed: Python's modulo, so never negative.
int64_t truncate_seed(int64_t seed) {
  int64_t r = seed % kMaxInt32;
  return r < 0 ? r + kMaxInt32 : r;
}

GraphBuilder::RandomSeedState& graph_seed_state(GraphBuilder& b) {
  GraphBuilder::RandomSeedState& s = b.random_seed_state;
  if (!s.initialised) {
    // A FuncGraph takes the global seed (TF reads it when the graph is created; tfscope when
    // the graph first needs it, the same unless the seed changes mid-trace).
    EagerSeedState& e = eager_seed_state();
    std::lock_guard<std::mutex> lock(e.mu);
    s.seed = e.global_seed;
    s.initialised = true;
  }
  return s;
}

}  // namespace

void set_random_seed(std::optional<int64_t> seed) {
  if (GraphBuilder* b = current_builder()) {
    GraphBuilder::RandomSeedState& s = graph_seed_state(*b);
    s.seed = seed;
    return;
  }
  {
    EagerSeedState& e = eager_seed_state();
    std::lock_guard<std::mutex> lock(e.mu);
    e.global_seed = seed;
    // TF seeds its op-seed generator with None (OS entropy) when there is no global seed; it
    // is never drawn from then.
    if (seed) e.op_seeds.emplace(*seed);
    else e.op_seeds.reset();
  }
  clear_kernel_states();
}

std::pair<int64_t, int64_t> get_random_seed(std::optional<int64_t> op_seed) {
  std::optional<int64_t> global_seed;
  GraphBuilder* b = current_builder();
  if (b) {
    GraphBuilder::RandomSeedState& s = graph_seed_state(*b);
    global_seed = s.seed;
    if (global_seed && !op_seed) op_seed = s.next_op_seed++;
  } else {
    EagerSeedState& e = eager_seed_state();
    std::lock_guard<std::mutex> lock(e.mu);
    global_seed = e.global_seed;
    if (global_seed && !op_seed) op_seed = e.op_seeds->randint_int32();
  }
  std::pair<int64_t, int64_t> seeds{0, 0};
  if (global_seed) {
    seeds = {truncate_seed(*global_seed), truncate_seed(*op_seed)};
  } else if (op_seed) {
    seeds = {kDefaultGraphSeed, truncate_seed(*op_seed)};
  }
  // (0, 0) means "nondeterministic" to the kernels, so TF avoids it for explicit seeds.
  if ((global_seed || op_seed) && seeds == std::pair<int64_t, int64_t>{0, 0}) {
    seeds = {0, kMaxInt32};
  }
  return seeds;
}

}  // namespace tfs
