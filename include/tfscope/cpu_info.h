// What the machine tfscope runs on offers, read the way TensorFlow 2.21 reads it when it picks its
// CPU kernels: which ISA extensions the CPU has, how many CPUs this process may run on (the size
// of TF's intra-op thread pool), and whether TF would run its oneDNN kernels here. Kernels whose
// float results depend on TF's choice (GEMM, reductions) ask this to sum in the order TF would.
#pragma once

#include <string>

namespace tfs {

struct CpuInfo {
  std::string vendor;      // "GenuineIntel", "AuthenticAMD", ...
  std::string model_name;  // the CPUID brand string
  bool avx2 = false;
  bool fma = false;
  bool avx512f = false;
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

// TF's rule (tensorflow/core/util/port.cc, IsMklEnabled): on Linux, oneDNN is on by default when
// the CPU has AVX512_VNNI, AVX512_BF16, AVX_VNNI or an AMX extension; TF_ENABLE_ONEDNN_OPTS set
// to 0/false or 1/true (any case) overrides the default, any other value keeps it. Read once,
// on first use, as TF does.
bool tf_onednn_enabled();
// The same rule for given features and variable value (nullptr: unset); for tests.
bool tf_onednn_policy(const CpuInfo& cpu, const char* env_value);

// The number of threads of TF's intra-op pool, which Eigen's ThreadPoolDevice reports and its
// kernels shard by: TF_NUM_INTRAOP_THREADS when set to a positive integer, else the number of
// schedulable CPUs.
int tf_intra_op_threads();

}  // namespace tfs
