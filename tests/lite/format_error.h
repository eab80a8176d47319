// The text of the FormatError that f throws ("" when it throws none), for tests of one-line errors.
#pragma once

#include <functional>
#include <string>

#include "tfscope/lite_format.h"

namespace tfs::lite::testing {

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

}  // namespace tfs::lite::testing
