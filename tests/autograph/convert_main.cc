// autograph_convert FILE.py FUNC [--diff]: prints the converted source (or the diff). On a
// conversion error prints "<TFType>: <message>" (or the message alone) and exits with 1.
#include <cstdio>
#include <cstring>

#include "tfscope/autograph.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: autograph_convert FILE.py FUNC [--diff]\n");
    return 2;
  }
  try {
    auto r = tfs::autograph::convert_file(argv[1], argv[2]);
    bool diff = argc > 3 && std::strcmp(argv[3], "--diff") == 0;
    std::fputs(diff ? r.diff.c_str() : r.converted.c_str(), stdout);
    return 0;
  } catch (const tfs::autograph::ConversionError& e) {
    if (!e.tf_type().empty())
      std::printf("%s: %s\n", e.tf_type().c_str(), e.what());
    else
      std::printf("%s\n", e.what());
    return 1;
  }
}
