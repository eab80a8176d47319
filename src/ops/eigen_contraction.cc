// TF 2.21's Eigen contraction planning (see eigen_contraction.h), written from Eigen's
// TensorContractionThreadPool.h, TensorContractionBlocking.h, TensorCostModel.h and
// GeneralBlockPanelKernel.h as shipped with tensorflow-cpu 2.21.0, and TF's
// eigen_contraction_kernel.h. The arithmetic (integer divisions, the double cost model and its
// int truncations) follows those sources step by step, because every rounding moves a block edge.
#include "eigen_contraction.h"

#include <algorithm>

namespace tfs::detail {
namespace {

constexpr int64_t kMr = kEigenMr, kNr = kEigenNr;
constexpr int64_t kFloat = 4;  // sizeof(float)

int64_t divup(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

// A TensorOpCost: bytes loaded, bytes stored, compute cycles.
struct Cost {
  double loaded = 0, stored = 0, compute = 0;
  Cost operator+(const Cost& o) const {
    return {loaded + o.loaded, stored + o.stored, compute + o.compute};
  }
  Cost operator*(double f) const { return {loaded * f, stored * f, compute * f}; }
};

// TensorCostModel<ThreadPoolDevice>
double total_cost(double output_size, const Cost& c) {
  const double kLoadCycles = 1.0 / 64 * 11, kStoreCycles = 1.0 / 64 * 11;
  return output_size * (kLoadCycles * c.loaded + kStoreCycles * c.stored + c.compute);
}

int cost_model_threads(double output_size, const Cost& c, int max_threads) {
  double threads = (total_cost(output_size, c) - 100000) / 100000 + 0.9;
  threads = std::min<double>(threads, 2147483647.0);
  return std::min(max_threads, std::max(1, static_cast<int>(threads)));
}

// The input evaluators' costPerCoeff(vectorized = true).
Cost input_cost(bool chipped) {
  return chipped ? Cost{kFloat, 0, 1.0 / kEigenPacket} : Cost{kFloat, 0, 0};
}
Cost rhs_cost(const ContractionSetting& s) {
  constexpr double kIndexDiv = 24, kIndexMul = 1;  // Eigen's DivCost<long>, MulCost<long>
  if (s.rhs_patches) return Cost{kFloat, 0, (3 * kIndexDiv + 14 * kIndexMul) / kEigenPacket};
  return input_cost(s.chipped);
}

double compute_bandwidth(bool shard_by_col, int64_t bm, int64_t bn, int64_t bk) {
  double b = bk == 1                                                              ? 4.0
             : ((shard_by_col ? bn : bm) < kNr || (shard_by_col ? bm : bn) < kMr) ? 2.0
                                                                                  : 0.5;
  if (b == 0.5) b = 1.0;  // TF's wheel is built without FMA
  return b;
}

Cost contraction_cost(int64_t m, int64_t n, int64_t bm, int64_t bn, int64_t bk, bool shard_by_col,
                      const ContractionSetting& s) {
  const double kd = static_cast<double>(bk);
  // Eigen passes shard_by_col = false to computeBandwidth here, whatever the sharding.
  Cost cost{0, 0, kd * compute_bandwidth(false, bm, bn, bk) / kEigenPacket};
  cost = cost + Cost{0, kFloat, 0};
  Cost lhs = input_cost(s.chipped) * (kd / static_cast<double>(n));
  Cost rhs = rhs_cost(s) * (kd / static_cast<double>(m));
  if (shard_by_col) {
    lhs.loaded = lhs.stored = 0;
  } else {
    rhs.loaded = rhs.stored = 0;
  }
  return cost + lhs + rhs;
}

bool shard_by_inner_dim(int64_t m, int64_t n, int64_t k, int threads, int threads_by_k,
                        int64_t l3) {
  const int64_t bufsize = m * n * kFloat;
  if (n == 1 || threads_by_k < 2 || threads_by_k < threads || bufsize > l3 / threads_by_k ||
      k / threads_by_k < 2 * kNr) {
    return false;
  }
  return std::max(m, n) / threads < kNr ||
         (k / threads_by_k > 8 * kNr && (std::min(m, n) < 2 * kNr || threads_by_k > threads));
}

}  // namespace

EigenBlocking eigen_product_blocking(int64_t k, int64_t m, int64_t n, int64_t num_threads,
                                     const EigenCacheSizes& caches, const GebpShape& g) {
  const int64_t l1 = caches.l1, l2 = caches.l2, l3 = caches.l3;
  const int64_t mr = g.mr, nr = g.nr;
  const int64_t k_div = mr * g.lhs_bytes + nr * g.rhs_bytes, k_sub = mr * nr * g.res_bytes;
  if (num_threads > 1) {
    const int64_t kr = 8;
    const int64_t k_cache = std::max<int64_t>(kr, std::min<int64_t>((l1 - k_sub) / k_div, 320));
    if (k_cache < k) k = k_cache - k_cache % kr;
    const int64_t n_cache = (l2 - l1) / (nr * g.rhs_bytes * k);
    const int64_t n_per_thread = divup(n, num_threads);
    if (n_cache <= n_per_thread) {
      n = n_cache - n_cache % nr;
    } else {
      n = std::min(n, (n_per_thread + nr - 1) - (n_per_thread + nr - 1) % nr);
    }
    if (l3 > l2) {
      const int64_t m_cache = (l3 - l2) / (g.lhs_bytes * k * num_threads);
      const int64_t m_per_thread = divup(m, num_threads);
      if (m_cache < m_per_thread && m_cache >= mr) {
        m = m_cache - m_cache % mr;
      } else {
        m = std::min(m, (m_per_thread + mr - 1) - (m_per_thread + mr - 1) % mr);
      }
    }
    return {k, m, n};
  }
  if (std::max({k, m, n}) < 48) return {k, m, n};
  const int64_t k_peeling = 8;
  const int64_t max_kc = std::max<int64_t>(((l1 - k_sub) / k_div) & ~(k_peeling - 1), 1);
  const int64_t old_k = k;
  if (k > max_kc) {
    k = k % max_kc == 0
            ? max_kc
            : max_kc - k_peeling * ((max_kc - 1 - k % max_kc) / (k_peeling * (k / max_kc + 1)));
  }
  const int64_t actual_l2 = 1572864;  // Eigen's fixed 1.5 MB
  const int64_t lhs_bytes = m * k * g.lhs_bytes;
  const int64_t remaining_l1 = l1 - k_sub - lhs_bytes;
  const int64_t max_nc = remaining_l1 >= nr * g.rhs_bytes * k
                             ? remaining_l1 / (k * g.rhs_bytes)
                             : (3 * actual_l2) / (2 * 2 * max_kc * g.rhs_bytes);
  const int64_t nc = std::min(actual_l2 / (2 * k * g.rhs_bytes), max_nc) & ~(nr - 1);
  if (n > nc) {
    n = n % nc == 0 ? nc : nc - nr * ((nc - n % nc) / (nr * (n / nc + 1)));
  } else if (old_k == k) {
    const int64_t problem_size = k * n * g.lhs_bytes;
    int64_t actual_lm = actual_l2, max_mc = m;
    if (problem_size <= 1024) {
      actual_lm = l1;
    } else if (l3 != 0 && problem_size <= 32768) {
      actual_lm = l2;
      max_mc = std::min<int64_t>(576, max_mc);
    }
    int64_t mc = std::min(actual_lm / (3 * k * g.lhs_bytes), max_mc);
    if (mc > mr) {
      mc -= mc % mr;
    } else if (mc == 0) {
      return {k, m, n};
    }
    m = m % mc == 0 ? mc : mc - mr * ((mc - m % mc) / (mr * (m / mc + 1)));
  }
  return {k, m, n};
}

EigenBlocking tf_contraction_blocking(int64_t k, int64_t m, int64_t n, int64_t num_threads,
                                      bool shard_by_col, const EigenCacheSizes& caches,
                                      bool custom_kernels) {
  EigenBlocking b;
  if (shard_by_col) {
    b = eigen_product_blocking(k, m, n, num_threads, caches);
  } else {
    EigenBlocking s = eigen_product_blocking(k, n, m, num_threads, caches);
    b = {s.kc, s.nc, s.mc};
  }
  if (b.kc <= 0 || b.mc <= 0 || b.nc <= 0 || !custom_kernels) return b;
  b.mc = std::min(m, divup(static_cast<int64_t>(static_cast<float>(b.mc) * 1.5f), 48) * 48);
  b.nc = std::min(n, divup(b.nc, 24) * 24);
  const int64_t slices = std::max<int64_t>(1, divup(k, b.kc));
  b.kc = std::min(k, divup(k / slices, 8) * 8);
  return b;
}

bool eigen_shard_by_col(int64_t m, int64_t n, int64_t t) {
  if (m / t >= kNr && (n / t < kNr || (n / t < 4 * kNr && n % (t * kNr) != 0 &&
                                       (m % (t * kNr) == 0 || m / n >= 6)))) {
    return false;
  }
  if (n / t < 16 * kNr && m > n * 32) return false;
  return true;
}

int eigen_threads_by_inner_dim(int64_t m, int64_t n, int64_t k, const ContractionSetting& s) {
  Cost cost{0, 0, compute_bandwidth(true, m, n, k) * static_cast<double>(m) * n / kEigenPacket};
  cost = cost + Cost{0, kFloat, 0};
  Cost lhs = input_cost(s.chipped) * static_cast<double>(m);
  lhs.loaded = lhs.stored = 0;
  Cost rhs = rhs_cost(s) * static_cast<double>(n);
  cost = cost + lhs + rhs;
  const double parallel = total_cost(static_cast<double>(k), cost);
  const double reduction = total_cost(static_cast<double>(m * n), Cost{2, 1, 1.0 / kEigenPacket});
  int threads = 1;
  double min_cost = parallel;
  for (int t = 2; t <= s.threads; t += 2) {
    const double sequential = 100000 + t * (reduction + 3000);
    const double c = parallel / t + sequential;
    if (c < min_cost) {
      threads = t;
      min_cost = c;
    }
  }
  return threads;
}

ContractionPlan plan_contraction(int64_t M, int64_t N, int64_t K, const ContractionSetting& s) {
  ContractionPlan p;
  bool by_col = eigen_shard_by_col(M, N, 2);
  EigenBlocking b = tf_contraction_blocking(K, M, N, 2, by_col, s.caches, s.custom_kernels);
  const Cost cost = contraction_cost(M, N, b.mc, b.nc, b.kc, by_col, s);
  int threads = cost_model_threads(static_cast<double>(N) * M, cost, s.threads);
  const int threads_by_k = eigen_threads_by_inner_dim(M, N, K, s);
  if (shard_by_inner_dim(M, N, K, threads, threads_by_k, s.caches.l3)) {
    p.kind = ContractionPlan::Kind::kInnerDim;
    const int64_t target = divup(divup(K, threads_by_k), 8) * 8;
    p.block_size = std::min(K, std::max<int64_t>(12 * kEigenPacket, target));
    p.blocks = divup(K, p.block_size);
    p.threads = threads_by_k;
    return p;
  }
  if (N == 1) threads = 1;
  if (threads == 1) {
    EigenBlocking sb = tf_contraction_blocking(K, M, N, 1, true, s.caches, s.custom_kernels);
    p.kind = ContractionPlan::Kind::kSequential;
    p.bm = std::min(M, sb.mc), p.bn = std::min(N, sb.nc), p.bk = sb.kc;
    return p;
  }
  by_col = eigen_shard_by_col(M, N, threads);
  b = tf_contraction_blocking(K, M, N, threads, by_col, s.caches, s.custom_kernels);
  p.kind = ContractionPlan::Kind::kParallel;
  p.bm = b.mc, p.bn = b.nc, p.bk = b.kc;
  p.threads = threads;
  return p;
}

}  // namespace tfs::detail
