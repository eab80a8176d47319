// The hybrid FULLY_CONNECTED's integer dots on AMX tiles (TDPBUSD: unsigned 8-bit inputs times
// signed 8-bit weights summed exactly into int32, as VPDPBUSD does), for blocks of 16 input rows;
// the other rows, and everything after the dots, are kernels_fc_avx512.cc's. Called only when
// the CPU has AMX and the kernel granted the tile state (amx_enable).
//
// A block: C tiles 0-3 (16 rows x 16 units each, the group's four panels), A tile 4 (16 rows x
// 64 inputs q + 128), B tiles 5 and 6 (64 inputs x 16 units of one panel: 16 rows of four d
// values per unit, which is one k group of the packed weights, rows a group-stride apart).
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "kernels_fc_internal.h"

#define TFS_AMX __attribute__((target("avx512f,avx512bw,avx512vnni,amx-tile,amx-int8")))

namespace tfs::lite::kernels {
namespace {

constexpr int kRows = 16;
constexpr int kPanels = 4;
constexpr size_t kGroupStride = 16 * 4 * kPanels;  // bytes per k group of a panel group

struct alignas(64) TileConfig {
  uint8_t palette = 1;
  uint8_t start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

TFS_AMX void amx_block(const FcCall& c, int b0, int p0, int32_t* acc) {
  const int depth_pad = c.layout.depth_pad;
  const int groups = depth_pad / 4;
  const uint8_t* q =
      static_cast<const uint8_t*>(c.q) + static_cast<size_t>(b0) * static_cast<size_t>(depth_pad);
  const int8_t* w = c.wq + static_cast<size_t>(p0) * static_cast<size_t>(groups) * 64;
  // Panels past the last unit (a group of a layer with fewer units) are skipped; their
  // outputs are never stored.
  const int panels = std::min(kPanels, (c.units - p0 * 16 + 15) / 16);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (int kb = 0; kb < depth_pad / 64; ++kb) {
    const int8_t* wk = w + static_cast<size_t>(kb) * 16 * kGroupStride;
    _tile_loadd(4, q + kb * 64, depth_pad);
    _tile_loadd(5, wk, kGroupStride);
    _tile_dpbusd(0, 4, 5);
    if (panels > 1) {
      _tile_loadd(6, wk + 64, kGroupStride);
      _tile_dpbusd(1, 4, 6);
    }
    if (panels > 2) {
      _tile_loadd(5, wk + 128, kGroupStride);
      _tile_dpbusd(2, 4, 5);
    }
    if (panels > 3) {
      _tile_loadd(6, wk + 192, kGroupStride);
      _tile_dpbusd(3, 4, 6);
    }
  }
  _tile_stored(0, acc, 64);
  _tile_stored(1, acc + 256, 64);
  _tile_stored(2, acc + 512, 64);
  _tile_stored(3, acc + 768, 64);
}

}  // namespace

bool amx_enable() {
  // ARCH_REQ_XCOMP_PERM for XFEATURE_XTILEDATA (Linux 5.16 and later).
  static const bool granted = syscall(SYS_arch_prctl, 0x1023, 18) == 0;
  return granted;
}

TFS_AMX void fc_hybrid_amx(const FcCall& c) {
  const int full = c.batch / kRows * kRows;
  if (full > 0) {
    TileConfig cfg;
    for (int t = 0; t <= 6; ++t) {
      cfg.rows[t] = kRows;
      cfg.colsb[t] = 64;
    }
    // GCC 12 models LDTILECFG as not reading the config: without this barrier it drops the
    // stores of rows and colsb (then TILEZERO faults).
    asm volatile("" : : "r"(&cfg) : "memory");
    _tile_loadconfig(&cfg);
    alignas(64) int32_t acc[kPanels * kRows * 16];
    for (int p0 = 0; p0 < c.layout.panels; p0 += kPanels) {
      for (int b0 = 0; b0 < full; b0 += kRows) {
        amx_block(c, b0, p0, acc);
        hybrid_rows_avx512(c, b0, p0, acc);
      }
    }
    _tile_release();
  }
  if (full < c.batch) {
    FcCall rest = c;
    const size_t skip = static_cast<size_t>(full);
    rest.batch = c.batch - full;
    rest.q = static_cast<const uint8_t*>(c.q) + skip * static_cast<size_t>(c.layout.depth_pad);
    rest.sf = c.sf + skip;
    rest.row_offset = c.row_offset + skip;
    rest.out = c.out + skip * static_cast<size_t>(c.units);
    rest.in = c.in + skip * static_cast<size_t>(c.depth);
    fc_hybrid_avx512(rest);
  }
}

}  // namespace tfs::lite::kernels
