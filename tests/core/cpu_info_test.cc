#include "tfscope/cpu_info.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

namespace tfs {
namespace {

CpuInfo avx2_epyc() {  // Zen 2/3: AVX2 + FMA, none of the features TF's oneDNN policy looks for
  CpuInfo c;
  c.avx2 = c.fma = true;
  return c;
}

CpuInfo sapphire_rapids() {
  CpuInfo c = avx2_epyc();
  c.avx512f = c.avx512_vnni = c.avx512_bf16 = c.avx_vnni = true;
  c.amx_tile = c.amx_int8 = c.amx_bf16 = true;
  return c;
}

TEST(CpuInfo, OneDnnOffByDefaultWithoutNeuralNetworkFeatures) {
  EXPECT_FALSE(tf_onednn_policy(avx2_epyc(), nullptr));
  CpuInfo skylake = avx2_epyc();
  skylake.avx512f = true;  // AVX-512 alone is not enough: TF asks for VNNI, BF16 or AMX
  EXPECT_FALSE(tf_onednn_policy(skylake, nullptr));
}

TEST(CpuInfo, OneDnnOnByDefaultWithAnyNeuralNetworkFeature) {
  EXPECT_TRUE(tf_onednn_policy(sapphire_rapids(), nullptr));
  CpuInfo cascade_lake = avx2_epyc();
  cascade_lake.avx512f = cascade_lake.avx512_vnni = true;
  EXPECT_TRUE(tf_onednn_policy(cascade_lake, nullptr));
  CpuInfo alder_lake = avx2_epyc();
  alder_lake.avx_vnni = true;
  EXPECT_TRUE(tf_onednn_policy(alder_lake, nullptr));
}

TEST(CpuInfo, EnvironmentVariableOverridesTheDefaultInAnyCase) {
  EXPECT_FALSE(tf_onednn_policy(sapphire_rapids(), "0"));
  EXPECT_FALSE(tf_onednn_policy(sapphire_rapids(), "False"));
  EXPECT_TRUE(tf_onednn_policy(avx2_epyc(), "1"));
  EXPECT_TRUE(tf_onednn_policy(avx2_epyc(), "TRUE"));
}

TEST(CpuInfo, UnrecognisedValueKeepsTheDefault) {
  EXPECT_TRUE(tf_onednn_policy(sapphire_rapids(), "off"));
  EXPECT_FALSE(tf_onednn_policy(avx2_epyc(), "yes"));
  EXPECT_FALSE(tf_onednn_policy(avx2_epyc(), ""));
}

// The features read with CPUID agree with the kernel's view in /proc/cpuinfo.
TEST(CpuInfo, FeaturesMatchProcCpuinfo) {
  std::ifstream in("/proc/cpuinfo");
  std::string line, flags;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) == 0) {
      flags = " " + line.substr(line.find(':') + 1) + " ";
      break;
    }
  }
  if (flags.empty()) GTEST_SKIP() << "no /proc/cpuinfo flags line";
  auto has = [&](const char* f) {
    return flags.find(std::string(" ") + f + " ") != std::string::npos;
  };
  const CpuInfo& c = cpu_info();
  EXPECT_EQ(c.avx2, has("avx2"));
  EXPECT_EQ(c.fma, has("fma"));
  EXPECT_EQ(c.avx512f, has("avx512f"));
  EXPECT_EQ(c.avx512bw, has("avx512bw"));
  EXPECT_EQ(c.avx512_vnni, has("avx512_vnni"));
  EXPECT_EQ(c.avx512_bf16, has("avx512_bf16"));
  EXPECT_EQ(c.avx_vnni, has("avx_vnni"));
  EXPECT_EQ(c.amx_tile, has("amx_tile"));
  EXPECT_EQ(c.amx_int8, has("amx_int8"));
  EXPECT_EQ(c.amx_bf16, has("amx_bf16"));
  EXPECT_GE(c.schedulable_cpus, 1);
}

// Eigen's AMD query: L1d KB in 0x80000005 ECX[31:24], L2 KB in 0x80000006 ECX[31:16], L3 in
// 512 KiB units in 0x80000006 EDX (Eigen masks bits 14..27 and shifts by 18). An EPYC's values:
// 32 KiB, 512 KiB, 64 units of L3.
TEST(EigenCacheSizes, AmdLeaves) {
  const EigenCacheSizes s = eigen_cache_sizes_amd(0x20080140u, 0x02006140u, 0x01009140u);
  EXPECT_EQ(s, (EigenCacheSizes{32 * 1024, 512 * 1024, 32 * 1024 * 1024}));
  // a register with bit 31 set shifts as a negative int in Eigen (then Eigen takes its default)
  EXPECT_LT(eigen_cache_sizes_amd(0x80000000u, 0x02006140u, 0).l1, 0);
}

// Intel's leaf 4: size = ways * partitions * line * sets (each stored minus one), for data (type
// 1) and unified (3) caches, until a subleaf of type 0.
TEST(EigenCacheSizes, IntelLeaf4) {
  auto leaf = [](unsigned type, unsigned level, unsigned ways, unsigned line, unsigned sets) {
    return CpuidLeaf4{type | (level << 5), ((ways - 1) << 22) | (line - 1), sets - 1};
  };
  const std::vector<CpuidLeaf4> leaves = {
      leaf(1, 1, 12, 64, 64),      // L1d 48 KiB
      leaf(2, 1, 8, 64, 64),       // L1i: not data
      leaf(3, 2, 16, 64, 2048),    // L2 2 MiB
      leaf(3, 3, 16, 64, 307200),  // L3 300 MiB
      {},                          // the end
      leaf(3, 3, 1, 64, 1),        // never read
  };
  EXPECT_EQ(eigen_cache_sizes_intel(leaves), (EigenCacheSizes{49152, 2097152, 314572800}));
}

// Eigen's values on this machine are positive, and on Intel they are the sizes Linux reports from
// the same CPUID leaf (per core for L1d and L2).
TEST(EigenCacheSizes, ThisMachine) {
  const EigenCacheSizes& s = eigen_cache_sizes();
  EXPECT_GT(s.l1, 0);
  EXPECT_GT(s.l2, 0);
  EXPECT_GT(s.l3, 0);
  if (cpu_info().vendor != "GenuineIntel") return;
  auto sysfs = [](int index) -> int64_t {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
    std::string v;
    if (!(in >> v) || v.empty() || v.back() != 'K') return -1;
    return std::stoll(v.substr(0, v.size() - 1)) * 1024;
  };
  if (sysfs(0) < 0) GTEST_SKIP() << "no sysfs cache sizes";
  EXPECT_EQ(s.l1, sysfs(0));  // index0: L1d
  EXPECT_EQ(s.l2, sysfs(2));  // index1 is L1i
}

CpuInfo with_isas(bool avx512_core) {
  CpuInfo c = avx2_epyc();
  c.sse41 = c.avx = true;
  if (avx512_core) c.avx512f = c.avx512bw = c.avx512vl = c.avx512dq = true;
  return c;
}

TEST(OneDnnIsa, BestTheCpuHasCappedByTheEnvironment) {
  EXPECT_EQ(onednn_isa_policy(with_isas(false), nullptr), OneDnnIsa::kAvx2);
  EXPECT_EQ(onednn_isa_policy(with_isas(true), nullptr), OneDnnIsa::kAvx512Core);
  EXPECT_EQ(onednn_isa_policy(with_isas(true), "AVX2"), OneDnnIsa::kAvx2);  // any case
  EXPECT_EQ(onednn_isa_policy(with_isas(true), "avx2_vnni"), OneDnnIsa::kAvx2);
  EXPECT_EQ(onednn_isa_policy(with_isas(true), "avx"), OneDnnIsa::kAvx);
  EXPECT_EQ(onednn_isa_policy(with_isas(false), "AVX512_CORE_AMX"), OneDnnIsa::kAvx2);
  EXPECT_EQ(onednn_isa_policy(with_isas(true), "avx512_core_amx"), OneDnnIsa::kAvx512Core);
  EXPECT_EQ(onednn_isa_policy(with_isas(true), "not_an_isa"), OneDnnIsa::kAvx512Core);
  CpuInfo knl = with_isas(false);  // AVX-512F without BW/VL/DQ is not avx512_core
  knl.avx512f = true;
  EXPECT_EQ(onednn_isa_policy(knl, nullptr), OneDnnIsa::kAvx2);
}

}  // namespace
}  // namespace tfs
