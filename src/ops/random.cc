// Placeholder for the random op family; filled in by its own change.
namespace tfs::detail {
void anchor_random_ops() {}
}  // namespace tfs::detail
