// A small float model built with the writer helpers: y = softmax(relu(x W^T + b) + c), x [1, 4].
#pragma once

#include <string>

namespace tfs::lite::testing {

// The weights are fixed: W[r][c] = (r + 1) * 0.25 - c * 0.125, b[r] = 0.5 - r, c = {0.1, 0.2, 0.3}.
std::string demo_model();

}  // namespace tfs::lite::testing
