#include "tfscope/cpu_info.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

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
  auto has = [&](const char* f) { return flags.find(std::string(" ") + f + " ") != std::string::npos; };
  const CpuInfo& c = cpu_info();
  EXPECT_EQ(c.avx2, has("avx2"));
  EXPECT_EQ(c.fma, has("fma"));
  EXPECT_EQ(c.avx512f, has("avx512f"));
  EXPECT_EQ(c.avx512_vnni, has("avx512_vnni"));
  EXPECT_EQ(c.avx512_bf16, has("avx512_bf16"));
  EXPECT_EQ(c.avx_vnni, has("avx_vnni"));
  EXPECT_EQ(c.amx_tile, has("amx_tile"));
  EXPECT_EQ(c.amx_int8, has("amx_int8"));
  EXPECT_EQ(c.amx_bf16, has("amx_bf16"));
  EXPECT_GE(c.schedulable_cpus, 1);
}

}  // namespace
}  // namespace tfs
