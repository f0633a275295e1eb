#include "runner/session_writes.h"

#include <sys/statvfs.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include "core/json_util.h"

namespace pictor::runner {

namespace fs = std::filesystem;

void SessionWrites::failed(const std::string& what, int error) {
  own_.emplace_back(what, error);
  if (first_error_ == 0 || (!files::is_disk_full(first_error_) && files::is_disk_full(error))) first_error_ = error;
}

void SessionWrites::failed(const files::WriteError& e) { failed(fs::path(e.path()).filename().string(), e.error()); }

bool SessionWrites::json(const std::string& name, const nlohmann::json& j) {
  try {
    write_json_file(dir_ / name, j);
    return true;
  } catch (const files::WriteError& e) {
    failed(e);
    return false;
  }
}

void SessionWrites::add_recorder(const std::string& status_file, const nlohmann::json& status) {
  if (status_file == "hook.json") hook_status_ = true;
  if (!status.is_object() || !status.contains("write_errors") || !status["write_errors"].is_object()) return;
  for (const auto& [file, e] : status["write_errors"].items()) {
    Lost l{file, e.value("error", std::string()), 0, e};
    if (e.contains("rows_lost") && e["rows_lost"].is_number_unsigned()) l.rows = e["rows_lost"].get<std::uint64_t>();
    if (e.contains("bytes_lost") && e["bytes_lost"].is_number_unsigned() && e["bytes_lost"].get<std::uint64_t>() > 0)
      l.rows = std::max<std::uint64_t>(l.rows, 1);
    // A write that failed and went through on a retry lost nothing: listed, not a failure.
    if (l.rows > 0) {
      // The recorders give the OS's text; the errno it stands for decides how the line reads.
      const int error = l.error == std::strerror(ENOSPC) ? ENOSPC : l.error == std::strerror(EDQUOT) ? EDQUOT : EIO;
      if (first_error_ == 0 || (!files::is_disk_full(first_error_) && files::is_disk_full(error))) first_error_ = error;
    }
    recorded_.push_back(std::move(l));
  }
}

void SessionWrites::read_recorders(bool hook) {
  hook_ = hook;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    const bool proxy = name.rfind("proxy", 0) == 0 && entry.path().extension() == ".json";
    if (name != "hook.json" && !proxy) continue;
    try {
      add_recorder(name, nlohmann::json::parse(files::read_file(entry.path())));
    } catch (const std::exception&) {
      // An unreadable status file says nothing; session_files_json reports it.
    }
  }
  // No hook.json to report, and the disk is full: the interposer could not even write its status
  // (a disk full before the first frame, say), so what it lost is unknown, not nothing.
  struct statvfs st {};
  if (first_error_ == 0 && hook && !hook_status_ && ::statvfs(dir_.c_str(), &st) == 0 && st.f_bfree == 0)
    first_error_ = ENOSPC;
}

std::optional<std::string> SessionWrites::verdict() const {
  if (first_error_ == 0) return std::nullopt;
  std::vector<std::string> items;
  std::string not_written;
  for (const auto& [what, error] : own_) not_written += (not_written.empty() ? "" : ", ") + what;
  if (!not_written.empty()) items.push_back(not_written + " not written");
  std::uint64_t frame_rows = 0;
  bool frames_reported = false;
  for (const Lost& l : recorded_) {
    if (l.file.rfind("frames", 0) == 0) {
      frame_rows += l.rows;
      frames_reported = true;
    } else if (l.rows > 0) {
      items.push_back(fmt::format("{} {} rows lost", l.rows, l.file));
    }
  }
  if (frames_reported || hook_status_) items.push_back(fmt::format("{} frame rows lost", frame_rows));
  else if (hook_) items.push_back("frame rows lost unknown (hook.json not written)");
  std::string line = files::write_failure_text(dir_.string(), first_error_);
  for (std::size_t i = 0; i < items.size(); ++i) line += (i == 0 ? ": " : ", ") + items[i];
  return line;
}

nlohmann::json SessionWrites::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [what, error] : own_) j[what] = {{"error", std::strerror(error)}, {"written_by", "pictor"}};
  for (const Lost& l : recorded_) j[l.file] = l.detail;
  return j;
}

bool add_write_error(const fs::path& status_file, const std::string& what, const std::string& error) {
  try {
    nlohmann::json j = nlohmann::json::parse(files::read_file(status_file));
    if (!j.is_object()) return false;
    if (!j.contains("write_errors") || !j["write_errors"].is_object()) j["write_errors"] = nlohmann::json::object();
    j["write_errors"][what] = {{"error", error}, {"written_by", "pictor"}};
    write_json_file(status_file, j, status_file.filename() == "run.json" ? kRunJsonWrite : files::WriteOptions{});
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace pictor::runner
