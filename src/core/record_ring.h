// A bounded lock-free multi-producer / single-consumer ring of fixed-size records: what the
// interposer's render threads push into and its writer thread drains. No allocation after
// construction, no locks, no syscalls; a full ring drops the record and counts the drop.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace pictor {

template <typename Record>
class RecordRing {
  static_assert(std::is_trivially_copyable_v<Record>, "records are copied byte-wise");

 public:
  // capacity is rounded up to a power of two.
  explicit RecordRing(std::size_t capacity) {
    std::size_t c = 1;
    while (c < capacity) c <<= 1;
    mask_ = c - 1;
    slots_ = std::make_unique<Slot[]>(c);
    for (std::size_t i = 0; i < c; ++i) slots_[i].sequence.store(i, std::memory_order_relaxed);
  }

  // Any thread. Returns false (and counts a drop) when the ring is full.
  bool push(const Record& record) noexcept {
    std::size_t pos = head_.load(std::memory_order_relaxed);
    for (;;) {
      Slot& slot = slots_[pos & mask_];
      const std::size_t seq = slot.sequence.load(std::memory_order_acquire);
      const auto diff = static_cast<std::intptr_t>(seq) - static_cast<std::intptr_t>(pos);
      if (diff == 0) {
        if (head_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
          slot.record = record;
          slot.sequence.store(pos + 1, std::memory_order_release);
          return true;
        }
      } else if (diff < 0) {
        dropped_.fetch_add(1, std::memory_order_relaxed);
        return false;
      } else {
        pos = head_.load(std::memory_order_relaxed);
      }
    }
  }

  // Consumer thread only. Returns false when nothing is ready.
  bool pop(Record& out) noexcept {
    Slot& slot = slots_[tail_ & mask_];
    const std::size_t seq = slot.sequence.load(std::memory_order_acquire);
    if (static_cast<std::intptr_t>(seq) - static_cast<std::intptr_t>(tail_ + 1) < 0) return false;
    out = slot.record;
    slot.sequence.store(tail_ + mask_ + 1, std::memory_order_release);
    ++tail_;
    return true;
  }

  std::uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }
  std::size_t capacity() const noexcept { return mask_ + 1; }

 private:
  struct Slot {
    std::atomic<std::size_t> sequence{0};
    Record record{};
  };
  std::unique_ptr<Slot[]> slots_;
  std::size_t mask_ = 0;
  alignas(64) std::atomic<std::size_t> head_{0};
  alignas(64) std::size_t tail_ = 0;
  alignas(64) std::atomic<std::uint64_t> dropped_{0};
};

}  // namespace pictor
