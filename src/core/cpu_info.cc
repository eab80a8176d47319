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

bool bit(unsigned reg, int n) { return (reg >> n) & 1u; }

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
  if (max_leaf >= 7) {
    Regs l7 = cpuid(7, 0);
    Regs l7s1 = cpuid(7, 1);
    info.avx2 = os_avx && bit(l7.b, 5);
    info.avx512f = os_avx512 && bit(l7.b, 16);
    info.avx512_vnni = os_avx512 && bit(l7.c, 11);
    info.avx512_bf16 = os_avx512 && bit(l7s1.a, 5);
    info.avx_vnni = os_avx && bit(l7s1.a, 4);
    info.amx_bf16 = os_amx && bit(l7.d, 22);
    info.amx_tile = os_amx && bit(l7.d, 24);
    info.amx_int8 = os_amx && bit(l7.d, 25);
  }
  if (__get_cpuid_max(0x80000000u, nullptr) >= 0x80000004u) {
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

}  // namespace

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

int tf_intra_op_threads() {
  static const int n = [] {
    if (const char* env = std::getenv("TF_NUM_INTRAOP_THREADS")) {
      char* end = nullptr;
      const long v = std::strtol(env, &end, 10);
      if (end != env && *end == '\0' && v > 0 && v < 1 << 20) return static_cast<int>(v);
    }
    return cpu_info().schedulable_cpus;
  }();
  return n;
}

}  // namespace tfs
