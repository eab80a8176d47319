// Placeholder for the array op family; filled in by its own change.
namespace tfs::detail {
void anchor_array_ops() {}
}  // namespace tfs::detail
