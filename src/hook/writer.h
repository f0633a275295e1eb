// The interposer's background writer: drains the record ring every few milliseconds and appends
// frames.csv / gpu.csv rows with plain write(2), so a killed app loses at most ~70 ms of frames
// (50 ms of waiting for a GPU result + the 20 ms drain period).
// Rows go in whole (core/files.h RowFile); what a full disk refuses is counted in hook.json.
#pragma once
#include "core/hook_record.h"

namespace pictor::hook {

// Render-thread side: never blocks, allocates or makes a syscall.
void push_record(const HookRecord& record) noexcept;

// GL strings and the GPU-timing status of the first context, for hook.json.
void note_gl_info(const char* renderer, const char* version, const char* vendor, const char* api,
                  const char* gpu_timer) noexcept;

// Starts the writer thread (library load) and flushes/stops it (library unload / exit).
void start_writer() noexcept;
void stop_writer() noexcept;

}  // namespace pictor::hook
