// lite_tool dump MODEL.tflite    -- prints tfs::lite::dump
// lite_tool write-demo OUT       -- writes the demo float model (demo_model.h)
// For conformance/formats/check_tflite.py.
#include <iostream>

#include "demo_model.h"
#include "tfscope/lite_format.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: lite_tool dump MODEL.tflite | write-demo OUT.tflite\n";
    return 2;
  }
  try {
    const std::string mode = argv[1];
    if (mode == "dump") {
      std::cout << tfs::lite::dump(tfs::lite::ModelFile::read(argv[2]));
      return 0;
    }
    if (mode == "write-demo") {
      tfs::lite::write_model_file(argv[2], tfs::lite::testing::demo_model());
      return 0;
    }
    std::cerr << "lite_tool: unknown mode " << mode << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
