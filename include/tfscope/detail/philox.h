// Philox4x32-10, TF's counter-based generator (lib/random/philox_random.h): a 64-bit key and a
// 128-bit counter; each block is ten rounds on the counter, which then moves on by one. The
// random ops and tf.data's shuffle draw from it, so one definition serves both.
#pragma once

#include <array>
#include <cstdint>

namespace tfs::detail {

class Philox {
 public:
  using Block = std::array<uint32_t, 4>;

  Philox(uint64_t key, uint64_t c0, uint64_t c1)
      : key_{static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)},
        counter_{static_cast<uint32_t>(c0), static_cast<uint32_t>(c0 >> 32),
                 static_cast<uint32_t>(c1), static_cast<uint32_t>(c1 >> 32)} {}

  // Ten rounds on the current counter, then the counter moves on by one.
  Block next() {
    Block c = counter_;
    std::array<uint32_t, 2> k = key_;
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k[0] += kW32A;
        k[1] += kW32B;
      }
      c = single_round(c, k);
    }
    skip_one();
    return c;
  }

  // Moves the 128-bit counter on by `count` blocks.
  void skip(uint64_t count) {
    const uint32_t lo = static_cast<uint32_t>(count);
    uint32_t hi = static_cast<uint32_t>(count >> 32);
    counter_[0] += lo;
    if (counter_[0] < lo) ++hi;
    counter_[1] += hi;
    if (counter_[1] < hi && ++counter_[2] == 0) ++counter_[3];
  }

 private:
  static constexpr uint32_t kW32A = 0x9E3779B9, kW32B = 0xBB67AE85;
  static constexpr uint32_t kM4x32A = 0xD2511F53, kM4x32B = 0xCD9E8D57;

  static Block single_round(const Block& c, const std::array<uint32_t, 2>& k) {
    uint64_t p0 = static_cast<uint64_t>(kM4x32A) * c[0];
    uint64_t p1 = static_cast<uint64_t>(kM4x32B) * c[2];
    uint32_t lo0 = static_cast<uint32_t>(p0), hi0 = static_cast<uint32_t>(p0 >> 32);
    uint32_t lo1 = static_cast<uint32_t>(p1), hi1 = static_cast<uint32_t>(p1 >> 32);
    return {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
  }

  void skip_one() {
    if (++counter_[0] == 0 && ++counter_[1] == 0 && ++counter_[2] == 0) ++counter_[3];
  }

  std::array<uint32_t, 2> key_;
  Block counter_;
};

// One 32-bit sample at a time from a Philox stream (TF's SingleSampleAdapter): a block is drawn
// when the previous one is used up, and the rest of a block is kept for the next calls.
class PhiloxSamples {
 public:
  explicit PhiloxSamples(Philox gen) : gen_(gen) {}

  uint32_t next() {
    if (used_ == 4) {
      block_ = gen_.next();
      used_ = 0;
    }
    return block_[used_++];
  }

  // The stream moved on by `n` samples, as if next() had been called n times.
  void skip(uint64_t n) {
    const uint64_t left = 4 - used_;
    if (n <= left) {
      used_ += static_cast<int>(n);
      return;
    }
    n -= left;
    used_ = 4;
    gen_.skip(n / 4);
    if (n % 4 != 0) {
      block_ = gen_.next();
      used_ = static_cast<int>(n % 4);
    }
  }

 private:
  Philox gen_;
  Philox::Block block_{};
  int used_ = 4;
};

}  // namespace tfs::detail
