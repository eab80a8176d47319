// The gradient table: op type -> gradient function, filled by the registrations of the *_grad.cc
// files at static-initialisation time.
#include <map>
#include <mutex>

#include "tfscope/gradients.h"

namespace tfs {

// The families register from static initialisers; referencing one symbol of each keeps their
// files in the static library.
namespace autodiff {
void anchor_math_grads();
void anchor_nn_grads();
void anchor_array_grads();
void anchor_unary_grads();
void anchor_sparse_grads();
void anchor_control_grads();
void anchor_function_grads();
}  // namespace autodiff

namespace {

struct Entry {
  GradientFunction fn;
  SparseGradientFunction sparse_fn;  // set for the ops whose gradients take IndexedSlices
  bool not_differentiable = false;
};

std::map<std::string, Entry>& entries() {
  static auto* t = new std::map<std::string, Entry>();
  return *t;
}

std::map<std::string, Entry>& table() {
  static bool anchored = [] {
    autodiff::anchor_math_grads();
    autodiff::anchor_nn_grads();
    autodiff::anchor_array_grads();
    autodiff::anchor_unary_grads();
    autodiff::anchor_sparse_grads();
    autodiff::anchor_control_grads();
    autodiff::anchor_function_grads();
    return true;
  }();
  (void)anchored;
  return entries();
}

}  // namespace

bool GradOp::skips(int i) const {
  for (int s : skip_input_indices)
    if (s == i) return true;
  return false;
}

GradientRegistration::GradientRegistration(const std::string& op, GradientFunction fn) {
  entries()[op].fn = std::move(fn);
}

SparseGradientRegistration::SparseGradientRegistration(const std::string& op,
                                                       SparseGradientFunction fn) {
  entries()[op].sparse_fn = std::move(fn);
}

NotDifferentiable::NotDifferentiable(const std::string& op) {
  entries()[op].not_differentiable = true;
}

const GradientFunction* find_gradient(const std::string& op, bool* not_differentiable) {
  auto it = table().find(op);
  if (not_differentiable)
    *not_differentiable = it != table().end() && it->second.not_differentiable;
  if (it == table().end() || it->second.not_differentiable || !it->second.fn) return nullptr;
  return &it->second.fn;
}

const SparseGradientFunction* find_sparse_gradient(const std::string& op) {
  auto it = table().find(op);
  if (it == table().end() || !it->second.sparse_fn) return nullptr;
  return &it->second.sparse_fn;
}

bool accepts_none_gradient(const std::string& op, int output) {
  // A call's gradient (function_grad.cc) makes zeros for the outputs it needs itself; its
  // forward function's intermediates get none.
  if (op == "PartitionedCall" || op == "StatefulPartitionedCall") return true;
  return output == 1 &&
         (op == "SoftmaxCrossEntropyWithLogits" || op == "SparseSoftmaxCrossEntropyWithLogits");
}

}  // namespace tfs
