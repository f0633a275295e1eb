// Reading and quoting outside text (see text.h).
#include "core/text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace pictor {

namespace {

// What a file that is not a regular file is, for the message that refuses it.
const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string size_text(std::uintmax_t bytes) {
  char buffer[32];
  if (bytes >= (std::uintmax_t{1} << 30)) {
    std::snprintf(buffer, sizeof buffer, "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
  } else if (bytes >= (std::uintmax_t{1} << 20)) {
    std::snprintf(buffer, sizeof buffer, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  } else {
    std::snprintf(buffer, sizeof buffer, "%ju bytes", bytes);
  }
  return buffer;
}

[[noreturn]] void refuse(const std::string& path, const std::string& cause) {
  throw UsageError(quote_for_error(path, 200) + ": " + cause);
}

struct Fd {
  int fd;
  ~Fd() { ::close(fd); }
};

}  // namespace

std::string read_input_file(const std::string& path, std::uintmax_t max_bytes) {
  // Looked at before opening: opening some devices has effects of its own or waits.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) refuse(path, std::string("cannot open: ") + std::strerror(errno));
  const auto check_kind = [&] {
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
      refuse(path, std::string("is ") + file_kind(st.st_mode) + ", not a file Pictor can read");
    }
  };
  check_kind();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) refuse(path, std::string("cannot open: ") + std::strerror(errno));
  const Fd guard{fd};
  if (::fstat(fd, &st) != 0) refuse(path, std::string("cannot stat: ") + std::strerror(errno));
  check_kind();  // the path may have been replaced in between
  const bool pipe = S_ISFIFO(st.st_mode);
  if (!pipe && static_cast<std::uintmax_t>(st.st_size) > max_bytes) {
    refuse(path, std::to_string(st.st_size) + " bytes is more than an input file may hold (" +
                     size_text(max_bytes) + ")");
  }

  std::string text;
  if (!pipe) text.reserve(static_cast<std::size_t>(st.st_size));
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      refuse(path, std::string("read error: ") + std::strerror(errno));
    }
    if (n == 0) break;
    // A file that grows while it is read (a session still writing) is held to the same cap.
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
      refuse(path, "more than an input file may hold (" + size_text(max_bytes) + ")");
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

std::string quote_for_error(std::string_view text, std::size_t max_bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(std::min(text.size(), max_bytes) + 8);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == max_bytes) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string fit_number(double value, int width, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  if (static_cast<int>(std::strlen(buffer)) <= width || !std::isfinite(value)) return buffer;
  for (int digits = width; digits >= 1; --digits) {
    std::snprintf(buffer, sizeof buffer, "%.*e", digits - 1, value);
    if (static_cast<int>(std::strlen(buffer)) <= width) return buffer;
  }
  return buffer;  // the one-digit form: wider than asked, but still one token
}

}  // namespace pictor
