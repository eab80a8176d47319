// The number of allocations (operator new, every form) this test binary has made so far, and
// their bytes; alloc_counter.cc replaces the global allocation functions to count them.
#pragma once

namespace tfs::testing {
long allocation_count();
long long allocated_bytes();
}  // namespace tfs::testing
