// A TF1-form SavedModel built from scratch with tfscope's protos: y = relu(x W + b), x [None, 4],
// W [4, 3], b [3]. With `variables`, W and b are resource variables restored from a TensorBundle
// written beside saved_model.pb (the recipe TF's v1 loader follows); without, they are Consts.
#pragma once

#include <string>

namespace tfs::savedmodel::testing {

// W[r][c] = 0.5 * r - 0.25 * c + 0.125, b = {0.5, -0.25, 0.0}.
void write_demo_saved_model(const std::string& dir, bool variables);

}  // namespace tfs::savedmodel::testing
