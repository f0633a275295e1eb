// GPU time per Vulkan frame from a ring of timestamp-query pairs on the queue that presents: one
// written before the frame's first submission, one after its last, read without ever waiting.
// A pair whose slot is still in flight when the next frame needs it leaves that frame untimed.
#pragma once
#include <vulkan/vulkan.h>

#include <atomic>
#include <cmath>
#include <cstdint>

namespace pictor::hook::vk {

struct Device;

// GPU ns between two raw timestamps of a queue with `valid_bits` significant bits (the counter
// wraps at 2^valid_bits) and `period_ns` ns per tick.
inline std::int64_t timestamp_delta_ns(std::uint64_t start, std::uint64_t end, std::uint32_t valid_bits,
                                       float period_ns) noexcept {
  const std::uint64_t mask = valid_bits >= 64 ? ~0ull : (1ull << valid_bits) - 1;
  const std::uint64_t ticks = (end - start) & mask;  // modulo the counter's width: wraps are fine
  return std::llround(static_cast<double>(ticks) * static_cast<double>(period_ns));
}

class FrameTimer {
 public:
  static constexpr int kSlots = 8;

  // At the first present, on the presenting queue: creates the query pool and the pre-recorded
  // start/end command buffers. False (reason() says why) when the queue family has no timestamps.
  bool init(Device& device, VkQueue queue, std::uint32_t family) noexcept;
  bool usable() const noexcept { return state_.load(std::memory_order_acquire) == State::ok; }
  const char* reason() const noexcept { return reason_; }

  // Before an app submission: on the timed queue, the frame's first one gets the start timestamp.
  void before_submit(Device& device, VkQueue queue) noexcept;
  // At a present on `queue`, after the marker's submission: ends the open frame with the end
  // timestamp and attributes it to (ctx, frame). True when that frame will get a GPU time.
  bool end_frame(Device& device, VkQueue queue, std::uint16_t ctx, std::uint64_t frame) noexcept;
  // After the present returns on the timed queue: pushes finished results (oldest first) as gpu
  // records; stops at the first one not ready.
  void collect(Device& device, VkQueue queue) noexcept;
  // The device is idle and about to go: pushes every remaining result and frees the objects.
  void retire(Device& device) noexcept;

 private:
  enum class State : std::uint8_t { unknown, ok, unavailable };
  struct Slot {
    VkCommandBuffer start = VK_NULL_HANDLE;  // reset the pair, timestamp at the top of the pipe
    VkCommandBuffer end = VK_NULL_HANDLE;    // timestamp once all earlier work has completed
    bool pending = false;                    // both written, result not read yet
    std::uint16_t ctx = 0;
    std::uint64_t frame = 0;
  };
  bool submit_one(Device& device, VkCommandBuffer cmd) noexcept;
  bool read_oldest(Device& device) noexcept;

  std::atomic<State> state_{State::unknown};
  const char* reason_ = "not initialised";
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkQueryPool queries_ = VK_NULL_HANDLE;
  std::uint32_t valid_bits_ = 0;
  float period_ns_ = 1.f;
  Slot slots_[kSlots];
  int open_ = -1;       // slot of the frame being recorded (start written), -1 when none
  bool tried_ = false;  // this frame already had its chance at a slot
  int next_ = 0;
  int oldest_ = 0;
};

}  // namespace pictor::hook::vk
