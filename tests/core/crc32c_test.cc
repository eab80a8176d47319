#include "tfscope/crc32c.h"

#include <gtest/gtest.h>

#include <string>

namespace tfs {
namespace {

TEST(Crc32c, MatchesTheStandardCheckValue) {
  EXPECT_EQ(crc32c("123456789"), 0xE3069283u);
}

TEST(Crc32c, EmptyInputIsZero) {
  EXPECT_EQ(crc32c(""), 0u);
}

TEST(Crc32c, ExtendEqualsOneShot) {
  const std::string s = "The quick brown fox jumps over the lazy dog, twice over.";
  for (size_t cut = 0; cut <= s.size(); ++cut) {
    const uint32_t head = crc32c(std::string_view(s).substr(0, cut));
    EXPECT_EQ(crc32c_extend(head, s.data() + cut, s.size() - cut), crc32c(s)) << cut;
  }
}

TEST(Crc32c, ThirtyTwoZeroBytesGiveTheRfc3720Value) {
  EXPECT_EQ(crc32c(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(crc32c(std::string(32, '\xff')), 0x62A8AB43u);
}

TEST(Crc32c, MaskRoundTripsAndDiffers) {
  for (uint32_t c : {0u, 1u, 0xE3069283u, 0xffffffffu}) {
    EXPECT_NE(crc32c_mask(c), c);
    EXPECT_EQ(crc32c_unmask(crc32c_mask(c)), c);
  }
}

}  // namespace
}  // namespace tfs
