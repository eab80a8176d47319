#include "tfscope/cpu_info.h"

#include <sched.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace tfs {
namespace {

#if defined(__x86_64__) || defined(__i386__)
struct Regs {
  unsigned a = 0, b = 0, c = 0, d = 0;
};

Regs cpuid(unsigned leaf, unsigned sub = 0) {
  Regs r;
  __cpuid_count(leaf, sub, r.a, r.b, r.c, r.d);
  return r;
}

bool bit(unsigned reg, int n) {
  return (reg >> n) & 1u;
}

void read_x86(CpuInfo& info) {
  const unsigned max_leaf = __get_cpuid_max(0, nullptr);
  Regs v = cpuid(0);
  char vendor[13] = {};
  std::memcpy(vendor, &v.b, 4);
  std::memcpy(vendor + 4, &v.d, 4);
  std::memcpy(vendor + 8, &v.c, 4);
  info.vendor = vendor;

  // AVX state must be enabled by the OS (XCR0) for AVX/AVX-512/AMX to be usable, as TF checks.
  Regs l1 = cpuid(1);
  const bool osxsave = bit(l1.c, 27);
  unsigned long long xcr0 = 0;
  if (osxsave) {
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (static_cast<unsigned long long>(hi) << 32) | lo;
  }
  const bool os_avx = (xcr0 & 0x6) == 0x6;
  const bool os_avx512 = (xcr0 & 0xe6) == 0xe6;
  const bool os_amx = (xcr0 & 0x60000) == 0x60000;
  info.fma = os_avx && bit(l1.c, 12);
  info.sse41 = bit(l1.c, 19);
  info.avx = os_avx && bit(l1.c, 28);
  if (max_leaf >= 7) {
    Regs l7 = cpuid(7, 0);
    Regs l7s1 = cpuid(7, 1);
    info.avx2 = os_avx && bit(l7.b, 5);
    info.avx512f = os_avx512 && bit(l7.b, 16);
    info.avx512dq = os_avx512 && bit(l7.b, 17);
    info.avx512bw = os_avx512 && bit(l7.b, 30);
    info.avx512vl = os_avx512 && bit(l7.b, 31);
    info.avx512_vnni = os_avx512 && bit(l7.c, 11);
    info.avx512_bf16 = os_avx512 && bit(l7s1.a, 5);
    info.avx_vnni = os_avx && bit(l7s1.a, 4);
    info.amx_bf16 = os_amx && bit(l7.d, 22);
    info.amx_tile = os_amx && bit(l7.d, 24);
    info.amx_int8 = os_amx && bit(l7.d, 25);
  }
  // GCC's <cpuid.h> returns unsigned int, clang's int: compare as unsigned in both.
  if (static_cast<unsigned>(__get_cpuid_max(0x80000000u, nullptr)) >= 0x80000004u) {
    char brand[49] = {};
    for (unsigned i = 0; i < 3; ++i) {
      Regs r = cpuid(0x80000002u + i);
      std::memcpy(brand + 16 * i, &r.a, 4);
      std::memcpy(brand + 16 * i + 4, &r.b, 4);
      std::memcpy(brand + 16 * i + 8, &r.c, 4);
      std::memcpy(brand + 16 * i + 12, &r.d, 4);
    }
    std::string s = brand;
    const auto first = s.find_first_not_of(' ');
    const auto last = s.find_last_not_of(' ');
    info.model_name = first == std::string::npos ? "" : s.substr(first, last - first + 1);
  }
}

// Eigen's queryCacheSizes on this machine, before its defaults.
EigenCacheSizes query_eigen_caches() {
  Regs v = cpuid(0);
  const unsigned max_std = v.a;
  auto is = [&](unsigned b, unsigned d, unsigned c) { return v.b == b && v.d == d && v.c == c; };
  const bool amd = is(0x68747541, 0x69746e65, 0x444d4163) ||  // "AuthenticAMD"
                   is(0x69444d41, 0x74656273, 0x21726574);    // "AMDisbetter!"
  if (amd) {
    if (cpuid(0x80000000u).a < 0x80000006u) return {};
    return eigen_cache_sizes_amd(cpuid(0x80000005u).c, cpuid(0x80000006u).c, cpuid(0x80000006u).d);
  }
  // Eigen reads the older leaf 2 descriptors where leaf 4 is missing (CPUs from before 2004);
  // tfscope takes the defaults there.
  if (max_std < 4) return {};
  std::vector<CpuidLeaf4> leaves;
  for (unsigned id = 0; id < 16; ++id) {
    Regs r = cpuid(4, id);
    leaves.push_back({r.a, r.b, r.c});
    if ((r.a & 0xF) == 0) break;
  }
  return eigen_cache_sizes_intel(leaves);
}
#else
EigenCacheSizes query_eigen_caches() {
  return {};
}
#endif

int schedulable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

CpuInfo read_cpu_info() {
  CpuInfo info;
#if defined(__x86_64__) || defined(__i386__)
  read_x86(info);
#endif
  info.schedulable_cpus = schedulable_cpus();
  return info;
}

int64_t or_default(int64_t v, int64_t def) {
  return v <= 0 ? def : v;
}

}  // namespace

EigenCacheSizes eigen_cache_sizes_intel(const std::vector<CpuidLeaf4>& subleaves) {
  EigenCacheSizes s;
  for (const CpuidLeaf4& r : subleaves) {
    const unsigned type = r.eax & 0xF;
    if (type == 1 || type == 3) {  // data or unified
      const int64_t ways = ((r.ebx >> 22) & 0x3FF) + 1, parts = ((r.ebx >> 12) & 0x3FF) + 1;
      const int64_t line = (r.ebx & 0xFFF) + 1, sets = static_cast<int64_t>(r.ecx) + 1;
      // Eigen multiplies in int: a size past 2^31 wraps as it does there
      const int64_t size = static_cast<int32_t>(static_cast<uint32_t>(ways * parts * line * sets));
      switch ((r.eax >> 5) & 7) {
        case 1:
          s.l1 = size;
          break;
        case 2:
          s.l2 = size;
          break;
        case 3:
          s.l3 = size;
          break;
        default:
          break;
      }
    }
    if (type == 0) break;
  }
  return s;
}

EigenCacheSizes eigen_cache_sizes_amd(uint32_t ecx_80000005, uint32_t ecx_80000006,
                                      uint32_t edx_80000006) {
  // Eigen holds the registers in ints, so its shifts of a register with bit 31 set are negative.
  EigenCacheSizes s;
  s.l1 = static_cast<int64_t>(static_cast<int32_t>(ecx_80000005) >> 24) * 1024;
  s.l2 = static_cast<int64_t>(static_cast<int32_t>(ecx_80000006) >> 16) * 1024;
  s.l3 = static_cast<int64_t>((edx_80000006 & 0xFFFC000u) >> 18) * 512 * 1024;
  return s;
}

const EigenCacheSizes& eigen_cache_sizes() {
  static const EigenCacheSizes sizes = [] {
    EigenCacheSizes s = query_eigen_caches();
    return EigenCacheSizes{or_default(s.l1, 32 * 1024), or_default(s.l2, 256 * 1024),
                           or_default(s.l3, 2 * 1024 * 1024)};
  }();
  return sizes;
}

OneDnnIsa onednn_isa_policy(const CpuInfo& cpu, const char* max_isa_env) {
  OneDnnIsa best = OneDnnIsa::kNone;
  if (cpu.sse41) best = OneDnnIsa::kSse41;
  if (cpu.avx) best = OneDnnIsa::kAvx;
  if (cpu.avx2) best = OneDnnIsa::kAvx2;
  if (cpu.avx512f && cpu.avx512bw && cpu.avx512vl && cpu.avx512dq) best = OneDnnIsa::kAvx512Core;
  if (max_isa_env == nullptr) return best;
  std::string v = max_isa_env;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  OneDnnIsa cap = OneDnnIsa::kAvx512Core;  // "all" and unknown values: no cap
  if (v == "sse41") cap = OneDnnIsa::kSse41;
  if (v == "avx") cap = OneDnnIsa::kAvx;
  if (v == "avx2" || v == "avx2_vnni" || v == "avx2_vnni_2") cap = OneDnnIsa::kAvx2;
  return std::min(best, cap);
}

OneDnnIsa onednn_isa() {
  static const OneDnnIsa isa = [] {
    // oneDNN takes the first of the two that is set and not empty
    const char* env = std::getenv("ONEDNN_MAX_CPU_ISA");
    if (env == nullptr || *env == '\0') env = std::getenv("DNNL_MAX_CPU_ISA");
    if (env != nullptr && *env == '\0') env = nullptr;
    return onednn_isa_policy(cpu_info(), env);
  }();
  return isa;
}

const char* onednn_isa_name(OneDnnIsa isa) {
  switch (isa) {
    case OneDnnIsa::kNone:
      return "none";
    case OneDnnIsa::kSse41:
      return "sse41";
    case OneDnnIsa::kAvx:
      return "avx";
    case OneDnnIsa::kAvx2:
      return "avx2";
    case OneDnnIsa::kAvx512Core:
      return "avx512_core";
  }
  return "none";
}

bool tf_custom_contraction_kernels() {
  static const bool on = [] {
    const char* v = std::getenv("TENSORFLOW_USE_CUSTOM_CONTRACTION_KERNEL");
    return !(v != nullptr && (std::strcmp(v, "false") == 0 || std::strcmp(v, "0") == 0));
  }();
  return on;
}

const CpuInfo& cpu_info() {
  static const CpuInfo info = read_cpu_info();
  return info;
}

bool tf_onednn_policy(const CpuInfo& cpu, const char* env_value) {
  bool enabled = cpu.avx512_vnni || cpu.avx512_bf16 || cpu.avx_vnni || cpu.amx_tile ||
                 cpu.amx_int8 || cpu.amx_bf16;
  if (env_value != nullptr) {
    std::string v = env_value;
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
    if (v == "0" || v == "false") enabled = false;
    if (v == "1" || v == "true") enabled = true;
  }
  return enabled;
}

bool tf_onednn_enabled() {
  static const bool enabled = tf_onednn_policy(cpu_info(), std::getenv("TF_ENABLE_ONEDNN_OPTS"));
  return enabled;
}

namespace {
int threads_from_env(const char* name) {
  if (const char* env = std::getenv(name)) {
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && v > 0 && v < 1 << 20) return static_cast<int>(v);
  }
  return cpu_info().schedulable_cpus;
}
}  // namespace

int tf_intra_op_threads() {
  static const int n = threads_from_env("TF_NUM_INTRAOP_THREADS");
  return n;
}

int tf_inter_op_threads() {
  static const int n = threads_from_env("TF_NUM_INTEROP_THREADS");
  return n;
}

}  // namespace tfs
