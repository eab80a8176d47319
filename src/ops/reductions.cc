// Placeholder for the reductions op family; filled in by its own change.
namespace tfs::detail {
void anchor_reduction_ops() {}
}  // namespace tfs::detail
