// What the machine tfscope runs on offers, read the way TensorFlow 2.21 reads it when it picks its
// CPU kernels: which ISA extensions the CPU has, how many CPUs this process may run on (the size
// of TF's intra-op thread pool), and whether TF would run its oneDNN kernels here. Kernels whose
// float results depend on TF's choice (GEMM, reductions) ask this to sum in the order TF would.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tfs {

struct CpuInfo {
  std::string vendor;      // "GenuineIntel", "AuthenticAMD", ...
  std::string model_name;  // the CPUID brand string
  bool sse41 = false;
  bool avx = false;
  bool avx2 = false;
  bool fma = false;
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512dq = false;
  bool avx512_vnni = false;
  bool avx512_bf16 = false;
  bool avx_vnni = false;
  bool amx_tile = false;
  bool amx_int8 = false;
  bool amx_bf16 = false;
  int schedulable_cpus = 1;  // sched_getaffinity's count, as TF's port::NumSchedulableCPUs
};

// Read once, on first use.
const CpuInfo& cpu_info();

// The cache sizes Eigen's GEMM blocking works with (bytes), read as Eigen's queryCacheSizes reads
// them: Intel (and any vendor but AMD) from CPUID leaf 4, AMD from leaves 0x80000005/0x80000006,
// then Eigen's x86 defaults (32 KiB, 256 KiB, 2 MiB) for a level that reads as zero or less.
struct EigenCacheSizes {
  int64_t l1 = 0, l2 = 0, l3 = 0;
  bool operator==(const EigenCacheSizes&) const = default;
};
const EigenCacheSizes& eigen_cache_sizes();  // this machine's, read once
// The same from raw CPUID registers, for tests. Leaf 4: one {eax, ebx, ecx} per subleaf, in order.
struct CpuidLeaf4 {
  uint32_t eax = 0, ebx = 0, ecx = 0;
};
EigenCacheSizes eigen_cache_sizes_intel(const std::vector<CpuidLeaf4>& subleaves);
EigenCacheSizes eigen_cache_sizes_amd(uint32_t ecx_80000005, uint32_t ecx_80000006,
                                      uint32_t edx_80000006);

// The instruction set oneDNN's float32 GEMM dispatches on (its mayiuse()): the best the CPU has,
// capped by ONEDNN_MAX_CPU_ISA (or DNNL_MAX_CPU_ISA) as oneDNN 3.7 parses it (lower case; values it
// does not know leave it uncapped). Only the levels that choose a different f32 kernel are named.
enum class OneDnnIsa : uint8_t { kNone, kSse41, kAvx, kAvx2, kAvx512Core };
OneDnnIsa onednn_isa();  // read once, on first use
OneDnnIsa onednn_isa_policy(const CpuInfo& cpu, const char* max_isa_env);
const char* onednn_isa_name(OneDnnIsa isa);

// TF's rule (tensorflow/core/util/port.cc, IsMklEnabled): on Linux, oneDNN is on by default when
// the CPU has AVX512_VNNI, AVX512_BF16, AVX_VNNI or an AMX extension; TF_ENABLE_ONEDNN_OPTS set
// to 0/false or 1/true (any case) overrides the default, any other value keeps it. Read once,
// on first use, as TF does.
bool tf_onednn_enabled();
// The same rule for given features and variable value (nullptr: unset); for tests.
bool tf_onednn_policy(const CpuInfo& cpu, const char* env_value);

// The number of threads of TF's intra-op pool by default (when tf.config.threading leaves it 0:
// tfscope/thread_pool.h's intra_op_threads() is the count in effect), which Eigen's
// ThreadPoolDevice reports and its kernels shard by: TF_NUM_INTRAOP_THREADS when set to a
// positive integer, else the number of schedulable CPUs.
int tf_intra_op_threads();
// The same for TF's inter-op pool: TF_NUM_INTEROP_THREADS, else the schedulable CPUs.
int tf_inter_op_threads();

// Whether TF's Eigen tensor contractions hand their float blocks to oneDNN's sgemm (TF's
// custom contraction kernel, on unless TENSORFLOW_USE_CUSTOM_CONTRACTION_KERNEL is "0" or "false").
bool tf_custom_contraction_kernels();

}  // namespace tfs
