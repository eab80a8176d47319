// libFuzzer: any source text either converts or ends in a ConversionError (Python's SyntaxError,
// TF's converter errors, tfscope's own syntax errors): never a crash, a stack overflow or a hang.
// Each top-level function of a module that parses is converted, as `tfscope autograph FILE:FUNC`
// would; the first input line may instead be a lambda's line and parameters.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "parser.h"
#include "tfscope/autograph.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view src(reinterpret_cast<const char*>(data), size);
  namespace ag = tfs::autograph;
  try {
    const ag::detail::ParsedModule m = ag::detail::parse_module(src);
    int converted = 0;
    for (const auto& s : m.body) {
      if (s->kind != ag::detail::K::FunctionDef || converted++ == 3) continue;
      try {
        volatile size_t n = ag::convert_source(src, s->s, "fuzz.py").diff.size();
        (void)n;
      } catch (const ag::ConversionError&) {
      }
    }
    if (converted == 0) {
      try {
        volatile size_t n = ag::convert_lambda_source(src, 1, {"x"}, "fuzz.py", {}).converted.size();
        (void)n;
      } catch (const ag::ConversionError&) {
      }
    }
  } catch (const ag::ConversionError&) {
  }
  return 0;
}
