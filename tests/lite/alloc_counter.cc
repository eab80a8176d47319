// Global operator new/delete that count allocations (for tests that check a path allocates
// nothing). In a file of its own: the compiler must not see the malloc behind the operators it
// pairs with delete expressions elsewhere.
#include "alloc_counter.h"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> g_allocations{0};
std::atomic<long long> g_bytes{0};

void* counted(size_t n, size_t align) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  g_bytes.fetch_add(static_cast<long long>(n), std::memory_order_relaxed);
  void* p = align <= alignof(std::max_align_t)
                ? std::malloc(n ? n : 1)
                : std::aligned_alloc(align, (n + align - 1) / align * align);
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

namespace tfs::testing {
long allocation_count() {
  return g_allocations.load();
}
long long allocated_bytes() {
  return g_bytes.load();
}
}  // namespace tfs::testing

void* operator new(size_t n) {
  return counted(n, 0);
}
void* operator new[](size_t n) {
  return counted(n, 0);
}
void* operator new(size_t n, std::align_val_t a) {
  return counted(n, static_cast<size_t>(a));
}
void* operator new[](size_t n, std::align_val_t a) {
  return counted(n, static_cast<size_t>(a));
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, size_t, std::align_val_t) noexcept {
  std::free(p);
}
